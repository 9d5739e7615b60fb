//go:build depcondriver

package throttle

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		l := NewLimiter(2)
		lincheck.Pair(t, func() { l.Acquire() }, func() { l.Reset() })
	}
}
