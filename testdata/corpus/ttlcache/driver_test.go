//go:build depcondriver

package ttlcache

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		c := NewCache(time.Minute)
		lincheck.Pair(t, func() { c.Get("a") }, func() { c.Get("b") })
	}
}
