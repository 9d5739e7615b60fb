//go:build depcondriver

package eventlog

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		l := new(Log)
		lincheck.Pair(t, func() { l.Append("a") }, func() { l.Find("a") })
	}
}
