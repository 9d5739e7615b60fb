package driver

import (
	"fmt"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/harness"
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
func (r *typeRun) replay(v *Violation, most int) (failed, runs int) {
	req := r.request(harness.OpRun, v.test, v.Pair[0], v.Pair[1])
	req.Sched = v.sched
	if v.lin != nil {
		// The oracle as it found v: the pair's later tests may run
		// without it (see retire).
		req.Lin = v.lin
	}
	if v.sched.Kind == harness.SchedTargeted {
		req.Test.Iters = min(req.Test.Iters, targetedIters)
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
			return kind == KindPanic || kind == KindFatal
		case child.DeathFatal, child.DeathExit:
			return kind == KindFatal
		}
		return false
	}
	res := rep.Result
	switch {
	case res == nil:
		return false
	case res.Status == harness.StatusPanic:
		return kind == KindPanic
	case res.Status == harness.StatusNotLinearizable:
		return kind == KindNotLinearizable
	case res.Status == harness.StatusHang:
		for _, w := range res.Waits {
			if w != "" && !harness.Blocked(w) {
				return false
			}
		}
		return kind == KindDeadlock
	}
	return false
}

// replayed formats a replay count: n of runs failed.
func replayed(n, runs int) string { return fmt.Sprintf("%d/%d", n, runs) }
