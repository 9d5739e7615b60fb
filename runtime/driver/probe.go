package driver

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/stacks"
	"github.com/depcon/depcon/runtime/testgen"
)

// beforeCall reports whether a probe's sequential run ended without an
// answer — it hung, or the child died — before the call under probe, while
// building its objects: that says nothing about the method.
func beforeCall(rep *child.Reply) bool {
	if d := rep.Death; d != nil {
		return d.Kind != child.DeathRace && rep.Step != "" && !strings.HasPrefix(rep.Step, "suffix")
	}
	res := rep.Result
	if res != nil && res.Status == harness.StatusSetupFailed {
		return true
	}
	if res == nil || (res.Status != harness.StatusBlocked && res.Status != harness.StatusRunning) {
		return false
	}
	return !strings.HasPrefix(res.Step, "suffix")
}

// failedSecond reports whether a constructor's probe (see
// testgen.Generator.CtorProbe) failed at its second call, after the first
// succeeded in the same process. A child that died while the second
// object was built, of a panic or fatal error in a goroutine the
// package's code started, was killed by an object's own goroutine (the
// first object's loop on a broken argument): that says nothing of the
// second call, and the probe failed as any other does.
func failedSecond(rep *child.Reply, prefix string) bool {
	if res := rep.Result; res != nil {
		return res.Status != harness.StatusOK && res.Step == "object 1"
	}
	return rep.Step == "object 1" && !inPackageGoroutine(rep.Death, prefix)
}

// inPackageGoroutine reports whether the child died of a panic or fatal
// error in a goroutine that the code under test started, not the
// harness (whose names begin with prefix).
func inPackageGoroutine(d *child.Death, prefix string) bool {
	if d == nil || d.Kind != child.DeathPanic && d.Kind != child.DeathFatal {
		return false
	}
	gs := stacks.ParseDump(d.Report)
	if len(gs) == 0 || len(gs[0].Created) == 0 {
		return false
	}
	harnessFrame := func(f stacks.Frame) bool { return strings.Contains(f.Func, prefix) }
	g := gs[0]
	return !slices.ContainsFunc(g.Frames, harnessFrame) && !slices.ContainsFunc(g.Created, harnessFrame)
}

// denied returns the error of a probe's call that the isolation denied
// an operation, "" when it was not denied one.
func denied(rep *child.Reply) string {
	if rep.Result != nil && len(rep.Result.Denied) > 0 {
		return rep.Result.Denied[0]
	}
	return ""
}

// probe checks the constructors and then each method alone on a fresh
// object: it drops constructors that fail, measures the methods, and
// keeps out of the tests the methods that end the process, never return,
// or block. It reports a self-deadlock, and returns false when the type
// cannot be tested.
func (r *typeRun) probe() bool {
	zero, ok := r.probeCtors()
	if !ok {
		return false
	}
	var panics []string
	callable := 0
	probeEnd := r.start.Add(r.cfg.Budget / 2)
	for i, m := range r.s.Names {
		if time.Now().After(probeEnd) {
			// Objects slow to build (a large cache, a slow store) would
			// spend the budget in probes: the other half is the tests'.
			r.note("the probes took half the budget: %d %s tested without being probed alone (%s)",
				len(r.s.Names)-i, plural(len(r.s.Names)-i, "method is", "methods are"), strings.Join(r.s.Names[i:], ", "))
			callable += len(r.s.Names) - i
			break
		}
		works, panicMsg, ok := r.probeMethod(m)
		if !ok {
			return false
		}
		if works {
			callable++
		}
		if panicMsg != "" {
			panics = append(panics, panicMsg)
		}
	}
	if len(panics) > 0 && len(panics)*2 < len(r.s.Names) {
		r.note("panics whenever called alone on a fresh object (3 argument sets), so kept out of prefixes: %s",
			strings.Join(panics, "; "))
	}
	if len(panics) > 0 && len(panics)*2 >= len(r.s.Names) {
		what := "a fresh object"
		if zero {
			what = "the zero value"
		}
		r.note("%d of %d methods panic when called alone on %s (%s); if the type needs set-up, a constructor of the package "+
			"returning it lets depcon build it", len(panics), len(r.s.Names), what, strings.Join(panics, "; "))
	}
	if callable == len(panics) && len(panics) > 0 {
		callable = 0
	}
	if callable > 0 {
		r.searchArgs()
	}
	if callable == 0 {
		what := "a fresh object"
		if zero {
			what = "the zero value (there is no usable constructor)"
		}
		if len(panics) > 0 {
			r.rep.Skipped = fmt.Sprintf("every method panics when called alone on %s: %s", what, strings.Join(panics, "; "))
		} else {
			r.rep.Skipped = "no method can be called"
		}
		return false
	}
	return true
}

// probeCtors probes each constructor with growing arguments, keeps those
// that build an object (the fastest arguments first), and decides what
// the tests' objects are: zero reports the zero value (or a composite
// literal) for want of a constructor that works. It returns false when
// the type cannot be tested, with the reason in the report.
func (r *typeRun) probeCtors() (zero, ok bool) {
	var failures, global []string
	for _, f := range r.s.Ctors {
		fresh := false
		worked, fastest := 0, time.Duration(0)
		for attempt := 0; attempt < testgen.CtorProbes; attempt++ {
			test := r.g.CtorProbe(f, attempt, fresh)
			t0 := time.Now()
			rep := r.do(harness.Request{Op: harness.OpSeq, Test: test, Watchdog: probeWatchdog, HardCap: minHardCap})
			if rep == nil {
				return false, false
			}
			if rep.Result != nil && rep.Result.Status == harness.StatusOK {
				took := time.Since(t0)
				r.g.CtorWorked(test.Objects[0], took)
				if fresh && worked == 0 {
					r.g.FreshStrings(f.Name)
					r.logf("constructor %s needs a fresh name for each object", f.Name)
				}
				if worked++; worked == 1 || took < fastest {
					fastest = took
				}
				// A slow object (an interval each call waits for, a
				// large size) is probed again with other arguments,
				// twice at most and within a quarter of the budget: the
				// fastest build the tests' objects.
				last := attempt == testgen.CtorProbes-1 || time.Since(r.start) > r.cfg.Budget/4
				if fastest < slowCtor || worked == 3 || last {
					if fastest >= slowCtor {
						r.note("%s takes %v to build two objects with the fastest of %d argument %s that worked: "+
							"each test builds its objects", f.Name, fastest.Round(time.Millisecond), worked,
							plural(worked, "set", "sets"))
					}
					break
				}
				continue
			}
			if worked > 0 {
				continue // other arguments for a faster object: it works already
			}
			r.g.CtorResult(f.Name, false)
			failures = append(failures, outcome(rep))
			r.logf("constructor %s failed: %s", f.Name, outcome(rep))
			if failedSecond(rep, r.bin.Names.Prefix) {
				// The same arguments fail a second time: a fresh name
				// may make a fresh object (a registry refusing a
				// duplicate); without one, the constructor changes
				// process-wide state.
				if !fresh && takesString(f) {
					fresh = true
					attempt--
					continue
				}
				if !slices.Contains(global, f.Name) {
					global = append(global, f.Name)
				}
				r.g.DropCtor(f.Name)
				break
			}
		}
	}
	zero = len(r.g.Ctors()) == 0
	literal := r.s.LiteralFields()
	if shared := r.s.Shared; len(shared) > 0 {
		if zero && len(global) == 0 && len(literal) == 0 {
			r.rep.Skipped = fmt.Sprintf("only a process-wide instance: %s returns a package-level variable, "+
				"which every test would share, so no test can have fresh objects", strings.Join(shared, ", "))
			return false, false
		}
		r.note("%s not used: it returns a process-wide instance (a package-level variable)", strings.Join(shared, ", "))
	}
	if zero && len(global) > 0 && len(literal) == 0 {
		r.rep.Skipped = fmt.Sprintf("only process-wide instances: %s fails when called a second time in one process, "+
			"with fresh names too (it changes process-wide state, such as a registration), so no test can have fresh objects",
			strings.Join(global, ", "))
		return false, false
	}
	if len(global) > 0 {
		r.note("%s not used: it fails when called a second time in one process (it changes process-wide state)",
			strings.Join(global, ", "))
	}
	for _, f := range r.g.Ctors() {
		r.rep.BuiltBy = append(r.rep.BuiltBy, f.Name)
	}
	if zero {
		r.rep.BuiltBy = []string{report.ZeroValue}
		if len(literal) > 0 {
			r.rep.BuiltBy = []string{fmt.Sprintf("a composite literal setting %s", strings.Join(literal, ", "))}
		}
	}
	switch {
	case zero && len(r.s.Ctors) > 0 && (!r.s.Plan.Exported || slices.ContainsFunc(r.s.Ctors, func(f *testgen.Func) bool { return !f.Iface() })):
		// The zero value of a type its constructors fail to build is
		// no working object: its calls test misuse, or panic. Nor is
		// that of an unexported type, which no user can have.
		r.rep.Skipped = fmt.Sprintf("no working object: every constructor failed in %d probes each, with growing "+
			"arguments (%s)", testgen.CtorProbes, strings.Join(firstFailures(failures, 3), "; "))
		return false, false
	case zero && len(r.s.Ctors) > 0:
		r.note("no constructor returned a %s (%s): testing %s", r.s.Plan.Name,
			strings.Join(firstFailures(failures, 3), "; "), r.rep.BuiltBy[0])
	case zero:
		r.note("no constructor found (a function of the package returning %s, *%s or an interface they implement): testing %s",
			r.s.Plan.Name, r.s.Plan.Name, r.rep.BuiltBy[0])
	}
	return zero, true
}

// probeMethod calls m alone on a fresh object, with three argument sets
// at most, and records what that shows: its sequential time, that it
// panics, blocks, never returns or ends the process, or a violation of
// its own. It reports whether m counts as callable, its panic ("m: msg")
// when it panics alone, and false when the child is gone.
func (r *typeRun) probeMethod(m string) (callable bool, panicMsg string, ok bool) {
	// A probe that ends before the call (building the object with
	// unlucky arguments) says nothing about m: try other arguments.
	var test harness.Test
	var rep *child.Reply
	panics := 0
	// One that panics, or whose object's goroutine ends the process,
	// may have been given unlucky arguments too: the retries build
	// the object with fresh ones, and the arguments that work are the
	// objects' from then on (a factory parameter whose default makes
	// an object every call panics on; a zero interval the object's
	// ticker, started by the call, refuses).
	for attempt := range 3 {
		test = r.g.MethodProbe(m, attempt)
		rep = r.do(harness.Request{Op: harness.OpSeq, Test: test, Watchdog: probeWatchdog, HardCap: minHardCap})
		if rep == nil {
			return false, "", false
		}
		if !beforeCall(rep) && !panicked(rep) && denied(rep) == "" && !inPackageGoroutine(rep.Death, r.bin.Names.Prefix) {
			if rep.Death == nil && rep.Result.Status == harness.StatusOK {
				r.g.WorksOn(m, test.Objects[0].Fn)
				if panics > 0 {
					r.g.Worked(test.Suffix[0])
				}
			}
			if attempt > 0 {
				r.g.ObjectWorks(test.Objects[0])
			}
			break
		}
		if panicked(rep) {
			r.g.FailsOn(m, test.Objects[0].Fn)
			panics++
		}
		r.logf("probe of %s ended in %s: retrying with other arguments", m, outcome(rep))
	}
	if beforeCall(rep) {
		r.logf("probe of %s inconclusive: no object could be built in time", m)
		return true, "", true
	}
	if why := denied(rep); why != "" {
		r.g.Exclude(m)
		r.note("%s is not tested: it needs what the isolation denies (the filesystem outside its directory, the "+
			"network, more processes), in each of 3 probes: %s", m, why)
		return false, "", true
	}
	if d := rep.Death; d != nil {
		if d.Kind == child.DeathRace {
			r.g.Exclude(m)
			accesses, details := raceStacks(stacks.ParseRace(d.Report), r.bin.Names.Prefix)
			r.violation(r.alone(m, test, report.KindRace, fmt.Sprintf("data race while %s ran alone: %s", m,
				raceSummary(accesses)), details, accesses))
			return false, "", true
		}
		r.g.Exclude(m)
		r.note("%s is not tested: called alone, it ends the process (%s)", m, d.Msg)
		return false, "", true
	}
	switch res := rep.Result; res.Status {
	case harness.StatusOK:
		r.seqTime[m] = max(r.seqTime[m], slices.Max(append(res.Durations, 0)))
		return true, "", true
	case harness.StatusPanic:
		if r.failsAlone == nil {
			r.failsAlone = map[string]bool{}
		}
		r.failsAlone[m] = true
		r.logf("%s panics when called alone on a fresh object, with 3 argument sets: %s", m, res.Msg)
		// A prefix may put the object in a state the method accepts:
		// it stays in the concurrent calls, but no prefix calls it.
		r.g.NoPrefix(m)
		return true, fmt.Sprintf("%s: %s", m, res.Msg), true
	case harness.StatusBlocked:
		if harness.LockWait(res.Waits[0]) {
			r.g.Exclude(m)
			s := dumpStack(res.Stacks[0], "goroutine calling "+m, r.bin.Names.Prefix)
			r.violation(r.alone(m, test, report.KindSelfDeadlock,
				fmt.Sprintf("%s never returns when called alone on a fresh object: blocked in %s", m, res.Waits[0]),
				s.String(), []stacks.Stack{s}))
			return false, "", true
		}
		if len(res.Offspring) > 0 {
			// It waits for goroutines it started, which wait for a lock.
			r.g.Exclude(m)
			ss := []stacks.Stack{dumpStack(res.Stacks[0], "goroutine calling "+m, r.bin.Names.Prefix)}
			for i, st := range res.Offspring {
				ss = append(ss, dumpStack(st, fmt.Sprintf("goroutine %d it started", i+1), r.bin.Names.Prefix))
			}
			r.violation(r.alone(m, test, report.KindSelfDeadlock,
				fmt.Sprintf("%s never returns when called alone on a fresh object: it waits (%s) for goroutines it started, "+
					"which wait for a lock", m, res.Waits[0]), render("", ss, "\n\n"), ss))
			return false, "", true
		}
		r.g.NoPrefix(m)
		r.note("%s blocks when called alone on a fresh object (%s): kept out of prefixes", m, res.Waits[0])
		return true, "", true
	case harness.StatusRunning:
		r.g.Exclude(m)
		r.note("%s is not tested: called alone, it does not return (still running after %v)", m, minHardCap)
		return false, "", true
	default:
		r.logf("probe of %s inconclusive: %s", m, outcome(rep))
		return true, "", true
	}
}

// Argument search: argTraces traced tests per method, each calling it
// twice with fresh arguments; none for a method whose probe took longer
// than argSearchSlow, no more for one whose trace took longer than
// argTraceSlow (objects slow to build: bigcache's New allocates its
// shards), and none once the search has taken argSearchShare of the
// type's budget.
const (
	argTraces      = 8
	argSearchSlow  = 20 * time.Millisecond
	argTraceSlow   = 100 * time.Millisecond
	argSearchShare = 20
)

// searchArgs traces, for each method, tests calling it with fresh
// arguments: those that reach hook sites the others do not (that pass
// its checks: a valid name, a known unit) are reused by the later calls
// of the method (Generator.Reached), and the pairs' orders at those
// sites become reachable.
func (r *typeRun) searchArgs() {
	if r.sites == nil || r.cfg.Sched == SchedStress {
		return
	}
	end := time.Now().Add(r.cfg.Budget / argSearchShare)
	for _, m := range r.s.Names {
		if r.seqTime[m] > argSearchSlow {
			continue
		}
		for range argTraces {
			if time.Now().After(end) {
				r.logf("argument search ended: it took a %dth of the budget", argSearchShare)
				return
			}
			test, ok := r.g.ArgProbe(m)
			if !ok {
				break
			}
			req := r.request(harness.OpTrace, test, m, m)
			req.MaxTime = traceTime
			// One traced test may not take more than the whole search:
			// on a loaded machine, a call that waits (a lock the other
			// object holds) would otherwise hold it for the hard cap.
			limit := max(time.Second, r.cfg.Budget/argSearchShare)
			req.Watchdog, req.HardCap = min(req.Watchdog, limit), min(req.HardCap, limit)
			t0 := time.Now()
			rep := r.do(req)
			if rep == nil {
				return
			}
			if rep.Result == nil || rep.Result.Status != harness.StatusOK {
				break
			}
			for i, c := range test.Suffix {
				r.g.Reached(c, rep.Result.Reached[i])
			}
			if time.Since(t0) > argTraceSlow {
				break
			}
		}
	}
}

// alone returns a violation found by calling m alone, in test, with the
// stacks of its goroutines, rendered in details.
func (r *typeRun) alone(m string, test harness.Test, kind, msg, details string, ss []stacks.Stack) *finding {
	v := &finding{Violation: &report.Violation{Kind: kind, Pair: [2]string{m, m}, Objects: 1, Message: msg,
		Details: details, Stacks: ss, Alone: true}, test: test}
	if p := r.s.Plan.Pair(m, m); p != nil {
		v.Evidence = p.Evidence
	}
	return v
}

// takesString reports whether constructor f has a string parameter.
func takesString(f *testgen.Func) bool {
	for i := range f.Sig.Params().Len() {
		if b, ok := f.Sig.Params().At(i).Type().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			return true
		}
	}
	return false
}

// firstFailures returns the first n distinct failures.
func firstFailures(failures []string, n int) []string {
	var out []string
	for _, f := range failures {
		if !slices.Contains(out, f) && len(out) < n {
			out = append(out, f)
		}
	}
	return out
}

// slowCtor is how long a constructor's probe may take before other
// arguments are tried for faster objects.
const slowCtor = 100 * time.Millisecond

// panicked reports whether the call under probe panicked.
func panicked(rep *child.Reply) bool {
	return rep.Death == nil && rep.Result != nil && rep.Result.Status == harness.StatusPanic
}

// outcome describes a reply in a few words.
func outcome(rep *child.Reply) string {
	if d := rep.Death; d != nil {
		if rep.Step == "" {
			return fmt.Sprintf("the child died before its first step (%s)", d.Msg)
		}
		return fmt.Sprintf("the child died at %s (%s)", rep.Step, d.Msg)
	}
	res := rep.Result
	if res.Msg != "" {
		return fmt.Sprintf("%s at %s: %s", res.Status, res.Step, res.Msg)
	}
	return fmt.Sprintf("%s at %s", res.Status, res.Step)
}
