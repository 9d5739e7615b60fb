//go:build depcondriver

package config

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		c := NewConfig("a")
		lincheck.Pair(t, func() { c.Dump() }, func() { c.Set("a", "1") })
	}
	t.Log("no deadlock observed")
}
