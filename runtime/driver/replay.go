package driver

import (
	"fmt"
	"slices"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/driver/internal/sched"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
)

// replays is how many times at most a violation found under a schedule
// is replayed, each time in a fresh child; the replays stop after
// firmReplays when each of them failed: the schedule reproduces it.
const (
	replays     = 10
	firmReplays = 3
)

// replay runs the failing test of v again under its schedule, up to
// most times (at most replays), and returns how many runs failed as v
// did and how many ran. A scheduled violation's window may be too
// narrow for the overlay-free reproducer, which stresses without the
// hooks: the replay is then what confirms it.
func (r *typeRun) replay(v *finding, most int) (failed, runs int) {
	return r.replayUnder(v, v.sched, most)
}

// replayUnder runs the failing test of v under schedule sc, as replay
// does.
func (r *typeRun) replayUnder(v *finding, sc *harness.Schedule, most int) (failed, runs int) {
	req := r.request(harness.OpRun, v.test, v.Pair[0], v.Pair[1])
	req.Sched = sc
	if v.lin != nil {
		// The oracle as it found v: the pair's later tests may run
		// without it (see retire).
		req.Lin = v.lin
	}
	if sc.Kind == harness.SchedTargeted {
		req.Test.Iters = min(req.Test.Iters, sched.TargetedIters)
	}
	for ; runs < most && !replaysDone(failed, runs); runs++ {
		if r.confirmCtx.Err() != nil {
			break
		}
		p, err := child.Start(r.bin)
		if err != nil {
			r.note("cannot replay the %s: %v", v.Kind, err)
			break
		}
		rep, err := p.Do(r.confirmCtx, req, req.HardCap+idleSlack)
		p.Kill()
		if err == nil && failsSame(v.Kind, rep) {
			failed++
		}
	}
	return failed, runs
}

// replayOrders runs the failing test of v, whose own schedule did not
// replay it, under each targeted order of its pair (up to firmReplays
// times each, stopping at the first that fails) and returns the order
// that replays it, with its count; nil when none does. A test found
// failing under a schedule whose interleaving the hooks do not pin (a
// window inside a callee, a stress or PCT test) may fail under another
// order of the same pair; the pair was retired when it failed, so that
// order may never have run on it.
func (r *typeRun) replayOrders(v *finding) (*sched.Order, string) {
	if v.target == nil || v.target.Seq {
		return nil, ""
	}
	orders := r.policy.Orders(v.target)
	for i := range orders {
		o := &orders[i]
		if r.confirmCtx.Err() != nil {
			break
		}
		if v.sched.Kind == harness.SchedTargeted && slices.Equal(o.Holds, v.sched.Holds) {
			continue // its own schedule, replayed already
		}
		sc := &harness.Schedule{Kind: harness.SchedTargeted, Holds: o.Holds, Patience: v.sched.Patience}
		if n, runs := r.replayUnder(v, sc, firmReplays); n > 0 {
			return o, replayed(n, runs)
		}
	}
	return nil, ""
}

// replaysDone reports whether replays may stop after runs, failed of
// which failed as the violation did.
func replaysDone(failed, runs int) bool {
	return runs >= replays || runs >= firmReplays && failed == runs
}

// failsSame reports whether rep is a failure of the kind of a violation:
// a data race confirms any kind, as the race detector may report the race
// behind a panic or a deadlock first.
func failsSame(kind string, rep *child.Reply) bool {
	if d := rep.Death; d != nil {
		switch d.Kind {
		case child.DeathRace:
			return true
		case child.DeathPanic:
			return kind == report.KindPanic || kind == report.KindFatal
		case child.DeathFatal, child.DeathExit:
			return kind == report.KindFatal
		}
		return false
	}
	res := rep.Result
	switch {
	case res == nil:
		return false
	case res.Status == harness.StatusPanic:
		return kind == report.KindPanic
	case res.Status == harness.StatusNotLinearizable:
		return kind == report.KindNotLinearizable
	case res.Status == harness.StatusHang:
		for _, w := range res.Waits {
			if w != "" && !harness.Blocked(w) {
				return false
			}
		}
		return kind == report.KindDeadlock
	}
	return false
}

// replayed formats a replay count: n of runs failed.
func replayed(n, runs int) string { return fmt.Sprintf("%d/%d", n, runs) }
