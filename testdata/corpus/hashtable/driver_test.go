//go:build depcondriver

package hashtable

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		a, b := NewTable(), NewTable()
		lincheck.Pair(t, func() { a.Equal(b) }, func() { b.Equal(a) })
	}
	t.Log("no deadlock observed")
}
