//go:build depcondriver

package refcount

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		r := NewRef("a")
		lincheck.Pair(t, func() { r.Release() }, func() { r.Release() })
	}
	t.Log("no panic observed")
}
