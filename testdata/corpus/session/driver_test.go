//go:build depcondriver

package session

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		s := NewSession("a", time.Minute)
		lincheck.Pair(t, func() { s.Expired() }, func() { s.Extend(time.Second) })
	}
}
