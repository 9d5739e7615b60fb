//go:build depcondriver

package vector

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		a, b := NewVector(0), NewVector(0)
		lincheck.Pair(t, func() { a.AddAll(b) }, func() { b.AddAll(a) })
	}
	t.Log("no deadlock observed")
}
