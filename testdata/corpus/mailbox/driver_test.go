//go:build depcondriver

package mailbox

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 500 {
		m := NewMailbox(4)
		lincheck.Pair(t, func() { m.Put("a") }, func() { m.Close() })
	}
}
