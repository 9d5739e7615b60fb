//go:build depcondriver

package eventbus

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		b := NewBus()
		lincheck.Pair(t, func() { b.Publish("a", "x") }, func() { b.Reset() })
	}
	t.Log("no deadlock observed")
}
