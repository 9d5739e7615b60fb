//go:build depcondriver

package checks

import (
	"fmt"
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	lincheck.Check(t, "Pass() ∥ Summary()", 8*time.Second, func(run func(f, g func())) string {
		r := NewResults()
		var passed, failed, total int
		run(func() { r.Pass() }, func() { passed, failed, total = r.Summary() })
		return fmt.Sprint(passed, failed, total)
	})
}
