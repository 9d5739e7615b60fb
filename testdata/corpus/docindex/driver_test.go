//go:build depcondriver

package docindex

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		x := NewIndex()
		lincheck.Pair(t, func() { x.Search("a") }, func() { x.Search("b") })
	}
}
