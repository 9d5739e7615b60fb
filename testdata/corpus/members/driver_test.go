//go:build depcondriver

package members

import (
	"fmt"
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	d := NewDirectory()
	lincheck.Hammer(t, 500*time.Millisecond,
		func() { d.Join("a", "x") },
		func() { d.Join("b", "") },
		func() { d.Verify("a", "x") },
		func() { d.SetPassword("a", "x", "y") },
		func() { d.SetPassword("a", "y", "x") },
		func() { d.Leave("a") },
		func() { d.Len() },
		func() { d.Names() },
	)
	const each = 250 * time.Millisecond
	lincheck.Check(t, "Join(a, x) ∥ Join(a, y)", each, func(run func(f, g func())) string {
		d := NewDirectory()
		var r1, r2 bool
		run(func() { r1 = d.Join("a", "x") }, func() { r2 = d.Join("a", "y") })
		return fmt.Sprint(r1, r2, d.Verify("a", "x"), d.Verify("a", "y"), d.Len())
	})
	lincheck.Check(t, "Join(a, x) ∥ Leave(a)", each, func(run func(f, g func())) string {
		d := NewDirectory()
		var r1, r2 bool
		run(func() { r1 = d.Join("a", "x") }, func() { r2 = d.Leave("a") })
		return fmt.Sprint(r1, r2, d.Verify("a", "x"), d.Names())
	})
	lincheck.Check(t, "SetPassword(a, x, y) ∥ SetPassword(a, x, z)", each, func(run func(f, g func())) string {
		d := NewDirectory()
		d.Join("a", "x")
		var r1, r2 bool
		run(func() { r1 = d.SetPassword("a", "x", "y") }, func() { r2 = d.SetPassword("a", "x", "z") })
		return fmt.Sprint(r1, r2, d.Verify("a", "x"), d.Verify("a", "y"), d.Verify("a", "z"))
	})
	lincheck.Check(t, "SetPassword(a, x, y) ∥ Leave(a)", each, func(run func(f, g func())) string {
		d := NewDirectory()
		d.Join("a", "x")
		var r1, r2 bool
		run(func() { r1 = d.SetPassword("a", "x", "y") }, func() { r2 = d.Leave("a") })
		return fmt.Sprint(r1, r2, d.Verify("a", "y"), d.Len())
	})
	lincheck.Check(t, "Join(a, y) ∥ Leave(a) after Join(a, x)", each, func(run func(f, g func())) string {
		d := NewDirectory()
		d.Join("a", "x")
		var r1, r2 bool
		run(func() { r1 = d.Join("a", "y") }, func() { r2 = d.Leave("a") })
		return fmt.Sprint(r1, r2, d.Verify("a", "x"), d.Verify("a", "y"), d.Len())
	})
}
