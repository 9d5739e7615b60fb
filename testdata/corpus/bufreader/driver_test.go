//go:build depcondriver

package bufreader

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		r := NewReader("hello, world")
		lincheck.Pair(t, func() { r.Read(4) }, func() { r.Close() })
	}
}
