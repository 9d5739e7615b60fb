//go:build depcondriver

package pool

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		p := NewPool(1, 8)
		lincheck.Pair(t, func() { p.Get() }, func() { p.Get() })
	}
	t.Log("no panic observed")
}
