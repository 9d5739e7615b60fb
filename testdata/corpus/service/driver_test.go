//go:build depcondriver

package service

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		s := NewService("a")
		lincheck.Pair(t, func() { s.Stop() }, func() { s.Stop() })
	}
	t.Log("no panic observed")
}
