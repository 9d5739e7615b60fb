//go:build depcondriver

package scores

import (
	"fmt"
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	lincheck.Check(t, "Add(a, 1) ∥ Add(a, 2)", 8*time.Second, func(run func(f, g func())) string {
		b := NewBoard()
		var r1, r2 int
		run(func() { r1 = b.Add("a", 1) }, func() { r2 = b.Add("a", 2) })
		return fmt.Sprint(r1, r2, b.Score("a"))
	})
}
