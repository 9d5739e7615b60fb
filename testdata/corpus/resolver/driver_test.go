//go:build depcondriver

package resolver

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		r := NewResolver("a")
		lincheck.Pair(t, func() { r.Lookup("x") }, func() { r.Lookup("y") })
	}
}
