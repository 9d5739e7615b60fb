//go:build depcondriver

package tmpl

import (
	"testing"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	for range 200 {
		tp := NewTemplate("hello {{name}}")
		lincheck.Pair(t, func() { tp.Render("a") }, func() { tp.SetText("{{x}}") })
	}
}
