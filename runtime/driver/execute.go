package driver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/driver/internal/sched"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/stacks"
	"github.com/depcon/depcon/runtime/testgen"
)

// execute runs one generated test and returns the violation it exposes.
func (r *typeRun) execute(c *testgen.Case) *finding {
	r.tests++
	t := c.Target
	reached := r.prune(c)
	if reached != nil {
		for i, call := range c.Test.Suffix {
			if r.g.Reached(call, reached[i]) {
				r.policy.Reopen(call.Fn)
			}
		}
	}
	op := harness.OpRun
	if t.Seq {
		op = harness.OpSeq
	}
	req := r.request(op, c.Test, t.M1, t.M2)
	var oi int
	r.cur.sc, oi = r.policy.Next(t, reached, max(r.seqTime[t.M1], r.seqTime[t.M2]))
	r.cur.order = nil
	if oi == sched.SkipOrder {
		r.tests--
		r.skipped++
		return nil
	}
	if sc := r.cur.sc; sc != nil {
		req.Sched = sc
		switch {
		case oi >= 0:
			r.cur.order = &r.policy.Orders(t)[oi]
			req.Test.Iters = min(req.Test.Iters, sched.TargetedIters)
		case sc.Kind == harness.SchedDelay:
			// One enumeration, which saves the pair most of its PCT
			// tests once it has run every schedule: it may take as
			// long as sched.DelayTests tests.
			req.Test.Iters = max(req.Test.Iters, sched.DelayIters)
			req.MaxTime *= sched.DelayTests
		}
	}
	r.cur.lin = req.Lin
	rep := r.do(req)
	if rep == nil {
		r.tests-- // cut short by the end of the budget
		return nil
	}
	if !t.Seq {
		if r.rep.Schedules == nil {
			r.rep.Schedules = map[string]int{}
		}
		kind := SchedStress
		if req.Sched != nil {
			kind = req.Sched.Kind
		}
		r.rep.Schedules[kind]++
	}
	test := c.Test
	r.recordCoverage(t, oi, rep)
	if res := rep.Result; res != nil && res.LinVaried {
		r.linVaried[[2]string{t.M1, t.M2}] = true
	}
	if res := rep.Result; res != nil && res.LinOff != "" {
		pair := [2]string{t.M1, t.M2}
		if r.linOff[pair]++; r.linOff[pair] == maxLinOff {
			r.logf("%s: outcomes not checked for linearizability from now on: %s", t, res.LinOff)
		}
	}
	if rep.Result != nil {
		test = withoutDropped(test, rep.Result.Dropped)
		for _, d := range rep.Result.Dropped {
			r.logf("test %d: prefix call %d dropped: %s", r.tests, d.Index, d.Reason)
		}
	}
	inSuffix := rep.Step == "suffix" || t.Seq && rep.Step == "suffix 0"
	if d := rep.Death; d != nil {
		if inSuffix {
			r.tested[[2]string{t.M1, t.M2}] = true
		}
		switch {
		case d.Kind == child.DeathRace && inSuffix && !t.Seq && (t.M1 == "Wait" || t.M2 == "Wait") &&
			holdsWaitGroup(r.s.Type, 0) && waitGroupRace(stacks.ParseRace(d.Report), r.bin.Names.Prefix):
			// sync.WaitGroup's own rule, which a group's Wait passes on
			// to its callers: an Add at zero must happen before Wait.
			r.exercised = true
			if !r.waitNoted[t] {
				r.waitNoted[t] = true
				r.note("%s: a race not reported: the one sync.WaitGroup reports when an Add with the counter at "+
					"zero is concurrent with Wait, whose rule the type's Wait passes on to its callers", t)
			}
			return nil
		case d.Kind == child.DeathRace:
			raw := stacks.ParseRace(d.Report)
			accesses, details := raceStacks(raw, r.bin.Names.Prefix)
			summary := raceSummary(accesses)
			if waitGroupRace(raw, r.bin.Names.Prefix) {
				// Its frames are the runtime's: say whose rule it is.
				summary = "data race: a sync.WaitGroup's Add with the counter at zero, concurrent with its Wait"
			}
			v := r.newViolation(c, test, report.KindRace, summary, details, accesses)
			if v.Within, v.Sequential = raceCalls(raw, r.bin.Names.Prefix); v.Within != "" || v.Sequential != "" {
				v.Question = "" // not the pair's defect: no question about the pair
			}
			v.ownGoroutine = inOwnGoroutine(raw, r.bin.Names.Prefix)
			if how := r.unsupportedAfterEnd(c, test); how != "" {
				r.logf("test %d: race %s not reported: the type does not support the call after the end of its use (%s)",
					r.tests, raceSummary(accesses), how)
				r.failsSequentially(c.Target, how)
				return nil
			}
			if how := r.needsOther(c, test); how != "" {
				r.logf("test %d: race %s not reported: %s", r.tests, raceSummary(accesses), how)
				r.exercised = true
				if how == unchecked {
					return nil
				}
				if r.orderedDrops[t]++; r.orderedDrops[t] == 1 {
					r.note("%s: a race not reported: %s; its callers order the two calls", t, how)
				}
				if r.orderedDrops[t] == orderedDrops && !r.passed[t] && !r.reported(t) {
					r.g.Retire(t)
					r.logf("%s is not tested further: its last %d races were all of that kind", t, orderedDrops)
				}
				return nil
			}
			return v
		case !inSuffix || t.Seq:
			r.sequentialDeath(c, rep)
			return nil
		case d.Kind == child.DeathKilled:
			r.logf("test %d: the child stopped answering during %s; not reported", r.tests, t)
			return nil
		}
		cand := &candidate{kind: report.KindFatal, goroutine: -1, death: d.Kind, msg: d.Msg}
		cand.stacks, cand.details = fatalStacks(d.Report, r.bin.Names.Prefix)
		if d.Kind == child.DeathPanic {
			cand.kind, cand.msg = report.KindPanic, "panic in a goroutine of the type: "+d.Msg
			cand.ownGoroutine = true
		}
		if d.Kind == child.DeathExit {
			cand.msg = "the process exited during the concurrent calls (" + d.Msg + ")"
		}
		return r.confirm(c, test, cand)
	}
	res := rep.Result
	switch res.Status {
	case harness.StatusOK:
		r.tested[[2]string{t.M1, t.M2}] = true
		r.passed[t] = true
		r.exercised = true
		for _, call := range test.Suffix {
			if call.Recv >= 0 && call.Recv < len(test.Objects) {
				r.g.WorksOn(call.Fn, test.Objects[call.Recv].Fn)
			}
		}
		for _, o := range test.Objects {
			r.g.CtorResult(o.Fn, true)
		}
	case harness.StatusSetupFailed:
		// Building the objects or the prefix failed in a later iteration:
		// the objects may be half-built or locked, so nothing is judged.
		r.logf("test %d skipped: set-up failed at %s, iteration %d: %s", r.tests, res.Step, res.Iter+1, res.Msg)
	case harness.StatusObjectFailed:
		if i := stepIndex(res.Step, "object"); i >= 0 {
			r.g.CtorResult(test.Objects[i].Fn, false)
		}
		r.logf("test %d skipped: %s", r.tests, outcome(rep))
	case harness.StatusBlocked, harness.StatusRunning:
		if t.Seq && res.Step == "suffix 0" && harness.LockWait(res.Waits[0]) {
			r.tested[[2]string{t.M1, t.M2}] = true
			s := dumpStack(res.Stacks[0], "goroutine calling "+t.M1, r.bin.Names.Prefix)
			return r.newViolation(c, test, report.KindSelfDeadlock,
				fmt.Sprintf("%s never returns when called alone after the prefix: blocked in %s", t.M1, res.Waits[0]),
				s.String(), []stacks.Stack{s})
		}
		if i := stepIndex(res.Step, "prefix"); i >= 0 {
			r.g.NoPrefix(c.Test.Prefix[i].Fn)
		}
		r.logf("test %d skipped: a sequential call does not return: %s", r.tests, outcome(rep))
	case harness.StatusPanic:
		r.tested[[2]string{t.M1, t.M2}] = true
		if t.Seq {
			return nil
		}
		cand := &candidate{kind: report.KindPanic, goroutine: res.Goroutine, msg: res.Msg}
		cand.stacks, cand.details = r.suffixStacks(test, res)
		return r.confirm(c, test, cand)
	case harness.StatusNotLinearizable:
		r.tested[[2]string{t.M1, t.M2}] = true
		return r.newViolation(c, test, report.KindNotLinearizable, res.Msg, linDetails(test, res.Lin), nil)
	case harness.StatusHang:
		r.tested[[2]string{t.M1, t.M2}] = true
		for _, w := range res.Waits {
			if w != "" && !harness.Blocked(w) {
				r.logf("test %d: %s still running after %v; not reported", r.tests, t, r.request(op, test, t.M1, t.M2).HardCap)
				return nil
			}
		}
		cand := &candidate{kind: report.KindDeadlock, goroutine: -1, msg: r.hangMessage(test, res)}
		cand.stacks, cand.details = r.suffixStacks(test, res)
		return r.confirm(c, test, cand)
	default:
		r.logf("test %d skipped: %s", r.tests, outcome(rep))
	}
	return nil
}

// sequentialDeath handles a child that died in a sequential step: the
// method or constructor called there is kept out of later tests.
func (r *typeRun) sequentialDeath(c *testgen.Case, rep *child.Reply) {
	if inPackageGoroutine(rep.Death, r.bin.Names.Prefix) {
		// A goroutine of an object ended the process: its arguments are
		// to blame more than the call in progress.
		r.forgetObjects(c.Test, rep.Death.Msg)
		return
	}
	switch {
	case stepIndex(rep.Step, "prefix") >= 0:
		m := c.Test.Prefix[stepIndex(rep.Step, "prefix")].Fn
		r.g.NoPrefix(m)
		r.note("%s ended the process in a prefix (%s): kept out of prefixes", m, rep.Death.Msg)
	case stepIndex(rep.Step, "object") >= 0:
		fn := c.Test.Objects[stepIndex(rep.Step, "object")].Fn
		r.g.CtorResult(fn, false)
		r.logf("test %d skipped: constructor %s ended the process (%s)", r.tests, fn, rep.Death.Msg)
	case c.Target.Seq:
		r.g.Exclude(c.Target.M1)
		r.note("%s is not tested: called alone, it ends the process (%s)", c.Target.M1, rep.Death.Msg)
	default:
		r.logf("test %d skipped: %s", r.tests, outcome(rep))
	}
}

// forgetObjects keeps the constructor arguments of test's objects, one of
// whose goroutines ended the process with msg, out of later objects.
func (r *typeRun) forgetObjects(test harness.Test, msg string) {
	if r.g.ForgetObjects(test.Objects) {
		r.logf("test %d: an object's goroutine ended the process (%s): its constructor's arguments are not used again", r.tests, msg)
		return
	}
	r.logf("test %d skipped: an object's goroutine ended the process (%s)", r.tests, msg)
}

// stepIndex returns i for step "kind i", or -1.
func stepIndex(step, kind string) int {
	var i int
	if _, err := fmt.Sscanf(step, kind+" %d", &i); err != nil {
		return -1
	}
	return i
}

// withoutDropped returns test without the prefix calls that were
// dropped, the results of the others (harness.KResult) renumbered.
func withoutDropped(test harness.Test, dropped []harness.Drop) harness.Test {
	if len(dropped) == 0 {
		return test
	}
	index := map[int]int{} // old prefix index -> new
	var prefix []harness.Call
	for i, c := range test.Prefix {
		if !slices.ContainsFunc(dropped, func(d harness.Drop) bool { return d.Index == i }) {
			index[i] = len(prefix)
			prefix = append(prefix, c)
		}
	}
	test.Prefix = renumber(prefix, index)
	test.Suffix = renumber(test.Suffix, index)
	return test
}

// renumber returns copies of calls whose KResult arguments refer to the
// prefix calls by their new index.
func renumber(calls []harness.Call, index map[int]int) []harness.Call {
	var values func(vs []harness.Value) []harness.Value
	values = func(vs []harness.Value) []harness.Value {
		if vs == nil {
			return nil
		}
		out := make([]harness.Value, len(vs))
		for i, v := range vs {
			if v.K == harness.KResult {
				if n, ok := index[v.Prefix]; ok {
					v.Prefix = n
				}
			}
			v.Elems = values(v.Elems)
			if v.Call != nil {
				c := *v.Call
				c.Args = values(c.Args)
				v.Call = &c
			}
			out[i] = v
		}
		return out
	}
	out := make([]harness.Call, len(calls))
	for i, c := range calls {
		c.Args = values(c.Args)
		out[i] = c
	}
	return out
}

// newViolation returns the violation exposed by test of case c, with
// the stacks of its goroutines, rendered in details.
func (r *typeRun) newViolation(c *testgen.Case, test harness.Test, kind, msg, details string, ss []stacks.Stack) *finding {
	v := &finding{Violation: &report.Violation{Kind: kind, Pair: [2]string{c.Target.M1, c.Target.M2},
		Objects: c.Target.Objects, Message: msg, Details: details, Stacks: ss, Alone: c.Target.Seq}, test: test,
		target: c.Target}
	if kind == report.KindNotLinearizable {
		v.lin = r.cur.lin
	}
	if !c.Target.Seq {
		v.sched = r.cur.sc
		v.Schedule = sched.Describe(r.cur.sc, r.cur.order)
	}
	if c.Target.Pair != nil {
		v.Evidence = c.Target.Pair.Evidence
		if (kind == report.KindRace || kind == report.KindFatal) && !r.cfg.Strict {
			v.Question = c.Target.Pair.Question
		}
	}
	return v
}

// recordCoverage records how a test under targeted order oi of t went,
// when its suffixes ran: a child that died before them, or objects,
// arguments or a set-up that failed, did not try the order.
func (r *typeRun) recordCoverage(t *testgen.Target, oi int, rep *child.Reply) {
	if res := rep.Result; res == nil {
		if rep.Step == "suffix" { // the child died in the suffixes
			r.policy.Record(t, oi, nil, true)
		}
	} else if res.Status == harness.StatusOK || res.Status == harness.StatusPanic || res.Status == harness.StatusHang ||
		res.Status == harness.StatusNotLinearizable {
		r.policy.Record(t, oi, res.Sched, res.Status != harness.StatusOK)
	}
}

// linDetails shows a non-linearizable outcome as a table: each part
// compared, its value in the concurrent run and after each sequential
// order.
func linDetails(test harness.Test, lr *harness.LinResult) string {
	if lr == nil {
		return ""
	}
	names := suffixNames(test)
	var b strings.Builder
	fmt.Fprintf(&b, "%-28s %-20s %-20s %s\n", "", "concurrently", names[0]+"; "+names[1], names[1]+"; "+names[0])
	for _, i := range lr.Compared {
		mark := " "
		if lr.Got[i] != lr.Seq[0][i] && lr.Got[i] != lr.Seq[1][i] {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s %-26s %-20s %-20s %s\n", mark, lr.Labels[i], harness.Brief(lr.Got[i]), harness.Brief(lr.Seq[0][i]),
			harness.Brief(lr.Seq[1][i]))
	}
	return strings.TrimRight(b.String(), "\n")
}
