//go:build depcondriver

package settings

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		s := NewSettings("a")
		lincheck.Pair(t, func() { s.SetTheme("b") }, func() { _ = s.Summary() })
	}
}
