//go:build depcondriver

package headers

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		h := new(Header)
		h.Set("a", "1")
		lincheck.Pair(t, func() { h.Clone() }, func() { h.Set("b", "2") })
	}
}
