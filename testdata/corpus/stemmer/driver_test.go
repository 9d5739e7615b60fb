//go:build depcondriver

package stemmer

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		s := NewStemmer(2)
		lincheck.Pair(t, func() { s.Stem("running") }, func() { s.Stem("jumps") })
	}
}
