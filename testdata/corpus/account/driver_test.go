//go:build depcondriver

package account

import (
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		a, _ := NewAccount("a", 10)
		b, _ := NewAccount("b", 10)
		lincheck.Pair(t, func() { a.Transfer(b, 1) }, func() { b.Transfer(a, 1) })
	}
	t.Log("no deadlock observed")
}
