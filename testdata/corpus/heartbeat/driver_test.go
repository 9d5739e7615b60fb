//go:build depcondriver

package heartbeat

import (
	"fmt"
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/lincheck"
)

func TestDriver(t *testing.T) {
	m := NewMonitor()
	lincheck.Hammer(t, 500*time.Millisecond,
		func() { m.Beat("a") },
		func() { m.Beat("") },
		func() { m.Age("a") },
		func() { m.Beats("a") },
		func() { m.Forget("a") },
		func() { m.Names() },
		func() { m.Total() },
		func() { m.Idle() },
		func() { m.Longest() },
	)
	// The durations differ from run to run; what they say does not.
	const each = 300 * time.Millisecond
	lincheck.Check(t, "Beat(a) ∥ Beat(a)", each, func(run func(f, g func())) string {
		m := NewMonitor()
		var g1, g2 time.Duration
		run(func() { g1 = m.Beat("a") }, func() { g2 = m.Beat("a") })
		return fmt.Sprint(min(g1, g2) == 0, max(g1, g2) > 0, m.Beats("a"), m.Total(), m.Age("a") >= 0, m.Names(), m.Longest() == max(g1, g2))
	})
	lincheck.Check(t, "Beat(a) ∥ Longest() after Beat(a)", each, func(run func(f, g func())) string {
		m := NewMonitor()
		m.Beat("a")
		var gap, longest time.Duration
		run(func() { gap = m.Beat("a") }, func() { longest = m.Longest() })
		return fmt.Sprint(gap > 0, longest == 0 || longest == gap, m.Longest() == gap, m.Total())
	})
	lincheck.Check(t, "Beat(a) ∥ Forget(a) after Beat(a)", each, func(run func(f, g func())) string {
		m := NewMonitor()
		m.Beat("a")
		var gap time.Duration
		var forgot bool
		run(func() { gap = m.Beat("a") }, func() { forgot = m.Forget("a") })
		return fmt.Sprint(gap == 0, forgot, m.Beats("a"), m.Age("a") < 0)
	})
	lincheck.Check(t, "Age(a) ∥ Beat(a)", each, func(run func(f, g func())) string {
		m := NewMonitor()
		var age, gap time.Duration
		run(func() { age = m.Age("a") }, func() { gap = m.Beat("a") })
		return fmt.Sprint(age < 0, gap, m.Beats("a"), m.Idle() <= m.Age("a"))
	})
}
