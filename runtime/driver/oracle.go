package driver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/stacks"
	"github.com/depcon/depcon/runtime/testgen"
)

// A candidate is a failure of a concurrent run that is a violation only
// if no sequential order of the two calls reproduces it.
type candidate struct {
	kind      string // report.KindPanic, report.KindDeadlock or report.KindFatal
	goroutine int    // the suffix that panicked, or -1
	death     string // how the child died, "" if it answered
	msg       string
	stacks    []stacks.Stack // the goroutines, cut to the user's frames
	details   string         // them rendered
	// ownGoroutine is set when the failure happened in a goroutine the
	// code under test started, not in the test's calls.
	ownGoroutine bool
}

// seqRepeats is how many times each sequential order is run before a
// concurrent failure is taken for a violation: a failure that depends on
// timing (a timeout, a clock) may show in one sequential run only.
const seqRepeats = 2

// confirm runs both sequential orders of the suffixes of test, each
// seqRepeats times in a fresh child, and returns the violation when none
// reproduces cand.
func (r *typeRun) confirm(c *testgen.Case, test harness.Test, cand *candidate) *finding {
	for i := range 2 * seqRepeats {
		order := [2]int{i % 2, 1 - i%2}
		seq := test
		seq.Suffix = []harness.Call{test.Suffix[order[0]], test.Suffix[order[1]]}
		r.stop()
		rep := r.do(r.request(harness.OpSeq, seq, c.Target.M1, c.Target.M2))
		if rep == nil || reproduces(cand, rep) {
			if rep != nil {
				r.logf("test %d: %s %s, but also sequentially (%s;%s): %s", r.tests, cand.kind, cand.msg,
					seq.Suffix[0].Fn, seq.Suffix[1].Fn, outcome(rep))
				r.failsSequentially(c.Target, fmt.Sprintf("%s;%s: %s", seq.Suffix[0].Fn, seq.Suffix[1].Fn, outcome(rep)))
				if res := rep.Result; rep.Death == nil && res.Status == harness.StatusPanic && res.Step == "suffix 0" {
					// The first call panicked on the fresh object: on the
					// objects of its constructor, the method fails.
					first := seq.Suffix[0]
					if first.Recv >= 0 && first.Recv < len(test.Objects) {
						r.g.FailsOn(first.Fn, test.Objects[first.Recv].Fn)
					}
				}
				if cand.ownGoroutine && rep.Death != nil {
					r.forgetObjects(test, rep.Death.Msg)
				}
			}
			return nil
		}
	}
	msg := cand.msg + "; not so when the two calls run one after the other, in either order"
	v := r.newViolation(c, test, cand.kind, msg, cand.details, cand.stacks)
	v.ownGoroutine = cand.ownGoroutine
	return v
}

// ownGoroutinesOnly returns v as the type's defect, or nil. Of a type
// concurrent only through its own goroutines (deps.TypePlan.OwnGoroutines)
// nothing says its callers may overlap: what happens between the test's
// own calls is not its defect, and what its goroutines do is a bug, no
// question of its contract, since they run on after the call that
// started them returned.
func (r *typeRun) ownGoroutinesOnly(v *finding) *finding {
	if v == nil || !r.s.Plan.OwnGoroutines {
		return v
	}
	if !v.ownGoroutine {
		r.logf("%s between the test's own calls not reported: %s is concurrent only through its own goroutines",
			v.Kind, r.s.Plan.Name)
		return nil
	}
	v.Question = ""
	return v
}

// unsupportedAfterEnd returns, for a test one of whose two calls ends
// the object's use (deps.Teardown: Close, Stop…), how the other call
// fails when it runs after it, one after the other, by sending on the
// channel the end closed: the type's design has no call after its end
// (a collector whose Close closes the channel Submit sends on), and a
// race of the two calls is a call made after the end of the object's
// use, not a defect of the type. A type that guards its calls against
// its end (a closed flag checked under the lock) returns there, and its
// races stay reported; so do those of a type whose call crashes
// otherwise after its end (a nil file after Close), which is a defect of
// its own. "" when no call ends the object's use, or the other does not
// fail so after it.
func (r *typeRun) unsupportedAfterEnd(c *testgen.Case, test harness.Test) string {
	for i, end := range test.Suffix {
		if !deps.Teardown(end.Fn) || len(test.Suffix) != 2 {
			continue
		}
		seq := test
		seq.Suffix = []harness.Call{end, test.Suffix[1-i]}
		r.stop()
		rep := r.do(r.request(harness.OpSeq, seq, c.Target.M1, c.Target.M2))
		if rep == nil {
			return ""
		}
		if failedAt(rep, "suffix 1") && strings.Contains(outcome(rep), "send on closed channel") {
			return fmt.Sprintf("%s after %s: %s", seq.Suffix[1].Fn, end.Fn, outcome(rep))
		}
	}
	return ""
}

// needsOther returns, for a race of test's two calls one of which
// panicked in every probe on a fresh object (typeRun.failsAlone), how
// that call fails when it runs alone after the test's set-up, without
// the other: it works only once the other has run (an Addr that reads
// the listener Serve stores, a Pop of an empty queue), so its callers
// order it after the other, and a race of the two, with that set-up, is
// a call made before the state it needs exists. "" when neither call is
// such, or the call works after the set-up: a Pop after a prefix that
// pushed races with a concurrent Push as a defect of the type.
func (r *typeRun) needsOther(c *testgen.Case, test harness.Test) string {
	if len(test.Suffix) != 2 {
		return ""
	}
	for _, call := range test.Suffix {
		if !r.failsAlone[call.Fn] {
			continue
		}
		seq := test
		seq.Suffix = []harness.Call{call}
		r.stop()
		rep := r.do(r.request(harness.OpSeq, seq, c.Target.M1, c.Target.M2))
		if rep == nil {
			return unchecked
		}
		if rep.Death == nil && rep.Result.Status == harness.StatusPanic && rep.Result.Step == "suffix 0" {
			return fmt.Sprintf("%s panics when called after the same set-up without the other call: %s", call.Fn,
				rep.Result.Msg)
		}
	}
	return ""
}

// unchecked is what needsOther returns when the budget ended before its
// check ran: the race is not reported, since it may be one.
const unchecked = "the budget ended before the call could be checked alone"

// orderedDrops is how many races of a pair needsOther may drop, while no
// race of the pair was reported and none of its tests passed, before
// the pair is tested no more: each drop costs a sequential run.
const orderedDrops = 6

// failedAt reports whether a sequential run failed at step: it panicked,
// died or did not return there.
func failedAt(rep *child.Reply, step string) bool {
	if rep.Death != nil {
		return rep.Step == step
	}
	switch res := rep.Result; res.Status {
	case harness.StatusPanic, harness.StatusBlocked, harness.StatusRunning:
		return res.Step == step
	}
	return false
}

// seqFailures is how many tests of a pair may fail as its two calls do
// one after the other (Close twice), while none of its tests has run
// without failing, before the pair is tested no more: its tests end at
// that failure whatever the interleaving and whatever their arguments,
// and would take the type's tests from the other pairs (they never
// reach the sites of the pair's orders, which keep it first). A pair
// some of whose tests pass (arguments its methods accept) is tested on.
const seqFailures = 3

// failsSequentially counts a test of target t whose failure its calls
// also give sequentially (how), and retires t at seqFailures unless a
// test of t has passed.
func (r *typeRun) failsSequentially(t *testgen.Target, how string) {
	if r.passed[t] {
		return
	}
	if r.seqFails == nil {
		r.seqFails = map[*testgen.Target]int{}
	}
	if r.seqFails[t]++; r.seqFails[t] == seqFailures {
		r.g.Retire(t)
		r.note("%s is not tested further: %d of its tests failed as its calls do one after the other, and none "+
			"passed (%s)", t, seqFailures, how)
	}
}

// reproduces reports whether the sequential run rep, of the suffixes in
// order, reproduces cand. An inconclusive run counts as reproducing it, so
// that nothing is reported on doubt. A panic of either call reproduces a
// panic: a call that fails alone (Send(nil) on a feed that needs a
// typed value) may leave the object broken, and the other call's panic
// in the concurrent run is its consequence, not the interleaving's.
func reproduces(cand *candidate, rep *child.Reply) bool {
	if d := rep.Death; d != nil {
		switch cand.kind {
		case report.KindDeadlock:
			return d.Kind == child.DeathKilled
		case report.KindPanic:
			return d.Kind != child.DeathExit && d.Kind != child.DeathKilled
		}
		return cand.death == "" || d.Kind == cand.death || d.Kind == child.DeathRace
	}
	switch res := rep.Result; res.Status {
	case harness.StatusOK:
		return false
	case harness.StatusPanic:
		return cand.kind == report.KindPanic
	case harness.StatusBlocked, harness.StatusRunning:
		return cand.kind == report.KindDeadlock
	}
	return true
}

// suffixNames returns the suffix calls as "a.Read".
func suffixNames(test harness.Test) []string {
	var out []string
	for _, c := range test.Suffix {
		out = append(out, fmt.Sprintf("%c.%s", 'a'+c.Recv, c.Fn))
	}
	return out
}

// hangMessage describes a hang.
func (r *typeRun) hangMessage(test harness.Test, res *harness.Message) string {
	names := suffixNames(test)
	var parts []string
	for i, w := range res.Waits {
		if w == "" {
			parts = append(parts, names[i]+" returned")
		} else {
			parts = append(parts, fmt.Sprintf("%s blocked in %s", names[i], w))
		}
	}
	return fmt.Sprintf("%s never return (iteration %d): %s", strings.Join(names, " ∥ "), res.Iter+1,
		strings.Join(parts, ", "))
}

// reported reports whether a violation of target t's pair was reported.
func (r *typeRun) reported(t *testgen.Target) bool {
	return slices.ContainsFunc(r.found, func(f *finding) bool {
		return f.Pair == [2]string{t.M1, t.M2} || f.Pair == [2]string{t.M2, t.M1}
	})
}
