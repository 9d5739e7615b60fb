//go:build depcondriver

package bitset

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		a, b := NewSet(), NewSet()
		lincheck.Pair(t, func() { a.Intersects(b) }, func() { b.Intersects(a) })
	}
	t.Log("no deadlock observed")
}
