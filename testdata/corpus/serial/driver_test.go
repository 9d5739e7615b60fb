//go:build depcondriver

package serial

import (
	"fmt"
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	lincheck.Check(t, "Next() ∥ Next()", 8*time.Second, func(run func(f, g func())) string {
		g := NewGenerator(100)
		var r1, r2 int
		run(func() { r1 = g.Next() }, func() { r2 = g.Next() })
		return fmt.Sprint(r1, r2, g.Last(), g.Issued())
	})
}
