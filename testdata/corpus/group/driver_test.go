//go:build depcondriver

package group

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 500 {
		g := NewGroup()
		lincheck.Pair(t, func() { g.Cancel("a") }, func() { g.Cancel("b") })
	}
}
