//go:build depcondriver

package dict

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		d := NewDict("alpha beta gamma")
		lincheck.Pair(t, func() { d.Contains("a") }, func() { d.Contains("b") })
	}
}
