//go:build depcondriver

package observable

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		o := NewValue("a")
		lincheck.Pair(t, func() { o.Set("b") }, func() { o.Subscribe(func(string) {}) })
	}
}
