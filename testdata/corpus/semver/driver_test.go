//go:build depcondriver

package semver

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		v, _ := NewVersion(1, 2, 3)
		lincheck.Pair(t, func() { _ = v.String() }, func() { _ = v.String() })
	}
}
