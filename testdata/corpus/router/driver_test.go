//go:build depcondriver

package router

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		r := NewRouter("")
		lincheck.Pair(t, func() { r.Route("a") }, func() { r.Prune() })
	}
	t.Log("no deadlock observed")
}
