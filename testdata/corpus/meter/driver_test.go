//go:build depcondriver

package meter

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		m := new(Meter)
		lincheck.Pair(t, func() { m.Mark(1) }, func() { m.Mark(2) })
	}
}
