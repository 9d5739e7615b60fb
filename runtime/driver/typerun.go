package driver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/repro"
	"github.com/depcon/depcon/runtime/testgen"
)

// Timing of the child's watchdogs.
const (
	minWatchdog   = 200 * time.Millisecond // for a concurrent iteration
	probeWatchdog = 500 * time.Millisecond // for a call made alone
	minHardCap    = 5 * time.Second        // for a call still running
	idleSlack     = 10 * time.Second       // added to HardCap before a silent child is killed
)

// A typeRun is the testing of one type under test.
type typeRun struct {
	ctx      context.Context
	cancel   context.CancelFunc // ends the type's testing
	cfg      Config
	bin      *child.Binary
	s        *testgen.Subject
	g        *testgen.Generator
	rep      *TypeReport
	proc     *child.Proc
	start    time.Time
	deadline time.Time
	tests    int                      // tests run
	tested   map[[2]string]bool       // pairs whose suffixes ran
	seqTime  map[string]time.Duration // slowest sequential run of each method
	lastShow time.Time                // of the progress line
}

// testType tests one type until its first violation (a self-deadlock
// does not stop it) or the end of its budget.
func testType(ctx context.Context, cfg Config, bin *child.Binary, s *testgen.Subject) *TypeReport {
	r := &typeRun{
		cfg:     cfg,
		bin:     bin,
		s:       s,
		g:       testgen.New(s, testgen.Config{Seed: cfg.Seed, Iters: cfg.Iters, MaxLen: cfg.MaxLen, Mode: cfg.Mode, Pairs: cfg.Pairs}),
		rep:     newTypeReport(s.Pkg.Path(), s.Plan),
		start:   time.Now(),
		tested:  map[[2]string]bool{},
		seqTime: map[string]time.Duration{},
	}
	r.deadline = r.start.Add(cfg.Budget)
	r.ctx, r.cancel = context.WithDeadline(ctx, r.deadline)
	defer r.cancel()
	defer r.stop()
	if r.probe() {
		r.loop()
	}
	r.rep.PairsTested = len(r.tested)
	r.rep.TestsGenerated = r.tests
	r.rep.Elapsed = seconds(time.Since(r.start))
	r.progressDone()
	return r.rep
}

// loop runs generated tests until a violation, the end of the budget, or
// the end of the targets.
func (r *typeRun) loop() {
	if len(r.g.Targets()) == 0 {
		r.note("no %s pairs to test", r.cfg.Pairs)
		return
	}
	r.progress()
	for r.ctx.Err() == nil {
		c := r.g.Next()
		if c == nil {
			r.note("every pair left involves a method that cannot be called")
			return
		}
		v := r.execute(c)
		if v != nil {
			r.violation(v)
			if v.Kind != KindSelfDeadlock {
				return
			}
		}
		r.progress()
	}
}

// do sends req to the child, starting one if needed. It returns nil when
// the budget is spent. A child that died, or may have goroutines left
// blocked, is not reused.
func (r *typeRun) do(req harness.Request) *child.Reply {
	if r.ctx.Err() != nil {
		return nil
	}
	if r.proc == nil {
		p, err := child.Start(r.bin)
		if err != nil {
			r.note("testing stopped: %v", err)
			r.cancel()
			return nil
		}
		r.proc = p
	}
	rep, err := r.proc.Do(r.ctx, req, req.HardCap+idleSlack)
	if err != nil {
		r.proc.Kill()
		r.proc = nil
		if r.ctx.Err() == nil {
			r.note("testing stopped: %v", err)
			r.cancel()
		}
		return nil
	}
	if rep.Death != nil {
		r.proc = nil
	} else if st := rep.Result.Status; st == harness.StatusHang || st == harness.StatusBlocked ||
		st == harness.StatusRunning || st == harness.StatusPanic {
		r.stop()
	}
	return rep
}

// stop kills the child, if any.
func (r *typeRun) stop() {
	if r.proc != nil {
		r.proc.Kill()
		r.proc = nil
	}
}

// request returns a request for test, with watchdogs adapted to the
// sequential run times of methods ms.
func (r *typeRun) request(op string, test harness.Test, ms ...string) harness.Request {
	var seq time.Duration
	for _, m := range ms {
		seq = max(seq, r.seqTime[m])
	}
	wd := max(minWatchdog, 50*seq)
	return harness.Request{Op: op, Test: test, Watchdog: wd, HardCap: max(minHardCap, 10*wd)}
}

// beforeCall reports whether a probe's sequential run ended without an
// answer — it hung, or the child died — before the call under probe, while
// building its objects: that says nothing about the method.
func beforeCall(rep *child.Reply) bool {
	if d := rep.Death; d != nil {
		return d.Kind != child.DeathRace && rep.Step != "" && !strings.HasPrefix(rep.Step, "suffix")
	}
	res := rep.Result
	if res == nil || (res.Status != harness.StatusBlocked && res.Status != harness.StatusRunning) {
		return false
	}
	return !strings.HasPrefix(res.Step, "suffix")
}

// probe checks the constructors and then each method alone on a fresh
// object: it drops constructors that fail, measures the methods, and
// keeps out of the tests the methods that end the process, never return,
// or block. It reports a self-deadlock, and returns false when the type
// cannot be tested.
func (r *typeRun) probe() bool {
	var failures []string
	for _, f := range r.s.Ctors {
		for range 3 {
			rep := r.do(harness.Request{Op: harness.OpSeq, Test: r.g.CtorProbe(f), Watchdog: probeWatchdog, HardCap: minHardCap})
			if rep == nil {
				return false
			}
			ok := rep.Result != nil && rep.Result.Status == harness.StatusOK
			r.g.CtorResult(f.Name, ok)
			if ok {
				break
			}
			failures = append(failures, outcome(rep))
			r.logf("constructor %s skipped: %s", f.Name, outcome(rep))
		}
	}
	zero := len(r.g.Ctors()) == 0
	if zero && len(r.s.Ctors) > 0 {
		r.note("no usable constructor (%s): testing the zero value", strings.Join(failures, "; "))
	}
	var panics []string
	callable := 0
	for _, m := range r.s.Names {
		// A probe that ends before the call (building the object with
		// unlucky arguments) says nothing about m: try other arguments.
		var test harness.Test
		var rep *child.Reply
		for range 3 {
			test = r.g.MethodProbe(m)
			rep = r.do(harness.Request{Op: harness.OpSeq, Test: test, Watchdog: probeWatchdog, HardCap: minHardCap})
			if rep == nil {
				return false
			}
			if !beforeCall(rep) {
				break
			}
			r.logf("probe of %s ended in %s, before the call: retrying with other arguments", m, outcome(rep))
		}
		if beforeCall(rep) {
			r.logf("probe of %s inconclusive: no object could be built in time", m)
			callable++
			continue
		}
		if d := rep.Death; d != nil {
			if d.Kind == child.DeathRace {
				r.violation(r.alone(m, test, KindRace, fmt.Sprintf("data race while %s ran alone: %s", m,
					raceSummary(d.Report)), trimRace(d.Report, r.bin.Names.Prefix)))
				return false
			}
			r.g.Exclude(m)
			r.note("%s is not tested: called alone, it ends the process (%s)", m, d.Msg)
			continue
		}
		switch res := rep.Result; res.Status {
		case harness.StatusOK:
			callable++
			r.seqTime[m] = max(r.seqTime[m], slices.Max(append(res.Durations, 0)))
		case harness.StatusPanic:
			panics = append(panics, fmt.Sprintf("%s: %s", m, res.Msg))
			r.logf("%s panics when called alone on a fresh object: %s", m, res.Msg)
		case harness.StatusBlocked:
			if harness.LockWait(res.Waits[0]) {
				r.g.Exclude(m)
				r.violation(r.alone(m, test, KindSelfDeadlock,
					fmt.Sprintf("%s never returns when called alone on a fresh object: blocked in %s", m, res.Waits[0]),
					"goroutine calling "+m+":\n"+trimStack(res.Stacks[0], r.bin.Names.Prefix)))
				continue
			}
			r.g.NoPrefix(m)
			r.note("%s blocks when called alone on a fresh object (%s): kept out of prefixes", m, res.Waits[0])
			callable++
		case harness.StatusRunning:
			r.g.Exclude(m)
			r.note("%s is not tested: called alone, it does not return (still running after %v)", m, minHardCap)
		default:
			r.logf("probe of %s inconclusive: %s", m, outcome(rep))
			callable++
		}
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

// alone returns a violation found by calling m alone, in test.
func (r *typeRun) alone(m string, test harness.Test, kind, msg, details string) *Violation {
	v := &Violation{Kind: kind, Pair: [2]string{m, m}, Objects: 1, Message: msg, Details: details, test: test, seq: true}
	if p := r.s.Plan.Pair(m, m); p != nil {
		v.Evidence = p.Evidence
	}
	return v
}

// outcome describes a reply in a few words.
func outcome(rep *child.Reply) string {
	if d := rep.Death; d != nil {
		return fmt.Sprintf("the child died at %s (%s)", rep.Step, d.Msg)
	}
	res := rep.Result
	if res.Msg != "" {
		return fmt.Sprintf("%s at %s: %s", res.Status, res.Step, res.Msg)
	}
	return fmt.Sprintf("%s at %s", res.Status, res.Step)
}

// execute runs one generated test and returns the violation it exposes.
func (r *typeRun) execute(c *testgen.Case) *Violation {
	r.tests++
	t := c.Target
	op := harness.OpRun
	if t.Seq {
		op = harness.OpSeq
	}
	rep := r.do(r.request(op, c.Test, t.M1, t.M2))
	if rep == nil {
		r.tests-- // cut short by the end of the budget
		return nil
	}
	test := c.Test
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
		case d.Kind == child.DeathRace:
			return r.newViolation(c, test, KindRace, raceSummary(d.Report), trimRace(d.Report, r.bin.Names.Prefix))
		case !inSuffix || t.Seq:
			r.sequentialDeath(c, rep)
			return nil
		case d.Kind == child.DeathKilled:
			r.logf("test %d: the child stopped answering during %s; not reported", r.tests, t)
			return nil
		}
		cand := &candidate{kind: KindFatal, goroutine: -1, death: d.Kind,
			msg: d.Msg, details: fatalGoroutines(d.Report, r.bin.Names.Prefix)}
		if d.Kind == child.DeathPanic {
			cand.kind, cand.msg = KindPanic, "panic in a goroutine of the type: "+d.Msg
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
		for _, o := range test.Objects {
			r.g.CtorResult(o.Fn, true)
		}
	case harness.StatusObjectFailed:
		if i := stepIndex(res.Step, "object"); i >= 0 {
			r.g.CtorResult(test.Objects[i].Fn, false)
		}
		r.logf("test %d skipped: %s", r.tests, outcome(rep))
	case harness.StatusBlocked, harness.StatusRunning:
		if t.Seq && res.Step == "suffix 0" && harness.LockWait(res.Waits[0]) {
			r.tested[[2]string{t.M1, t.M2}] = true
			return r.newViolation(c, test, KindSelfDeadlock,
				fmt.Sprintf("%s never returns when called alone after the prefix: blocked in %s", t.M1, res.Waits[0]),
				"goroutine calling "+t.M1+":\n"+trimStack(res.Stacks[0], r.bin.Names.Prefix))
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
		cand := &candidate{kind: KindPanic, goroutine: res.Goroutine, msg: res.Msg, details: r.stacks(test, res)}
		return r.confirm(c, test, cand)
	case harness.StatusHang:
		r.tested[[2]string{t.M1, t.M2}] = true
		for _, w := range res.Waits {
			if w != "" && !harness.Blocked(w) {
				r.logf("test %d: %s still running after %v; not reported", r.tests, t, r.request(op, test, t.M1, t.M2).HardCap)
				return nil
			}
		}
		cand := &candidate{kind: KindDeadlock, goroutine: -1, msg: r.hangMessage(test, res), details: r.stacks(test, res)}
		return r.confirm(c, test, cand)
	default:
		r.logf("test %d skipped: %s", r.tests, outcome(rep))
	}
	return nil
}

// sequentialDeath handles a child that died in a sequential step: the
// method or constructor called there is kept out of later tests.
func (r *typeRun) sequentialDeath(c *testgen.Case, rep *child.Reply) {
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
		r.logf("test %d skipped: the child died at %s (%s)", r.tests, rep.Step, rep.Death.Msg)
	}
}

// stepIndex returns i for step "kind i", or -1.
func stepIndex(step, kind string) int {
	var i int
	if _, err := fmt.Sscanf(step, kind+" %d", &i); err != nil {
		return -1
	}
	return i
}

// withoutDropped returns test without the prefix calls that were dropped.
func withoutDropped(test harness.Test, dropped []harness.Drop) harness.Test {
	if len(dropped) == 0 {
		return test
	}
	var prefix []harness.Call
	for i, c := range test.Prefix {
		if !slices.ContainsFunc(dropped, func(d harness.Drop) bool { return d.Index == i }) {
			prefix = append(prefix, c)
		}
	}
	test.Prefix = prefix
	return test
}

// newViolation returns the violation exposed by test of case c.
func (r *typeRun) newViolation(c *testgen.Case, test harness.Test, kind, msg, details string) *Violation {
	v := &Violation{Kind: kind, Pair: [2]string{c.Target.M1, c.Target.M2}, Objects: c.Target.Objects,
		Message: msg, Details: details, test: test, seq: c.Target.Seq}
	if c.Target.Pair != nil {
		v.Evidence = c.Target.Pair.Evidence
	}
	return v
}

// violation records v with its reproducer.
func (r *typeRun) violation(v *Violation) {
	v.Seed = r.cfg.Seed
	v.TestsBefore = max(r.tests-1, 0)
	v.Elapsed = seconds(time.Since(r.start))
	v.Rerun = r.rerun()
	if v.test.Type != "" {
		// Stress the reproducer harder than one test: a deadlock window is
		// narrow, and a passing iteration costs little.
		rv := &repro.Violation{Kind: v.Kind, Message: v.Message, Seed: v.Seed, Test: v.test,
			Iters: 10 * r.cfg.Iters, Seq: v.seq}
		switch {
		case v.seq:
			rv.Iters = 1
		case v.Kind == KindDeadlock:
			rv.Iters = 100 * r.cfg.Iters
		}
		src, err := repro.Source(r.s, rv)
		switch {
		case err != nil:
			r.note("cannot write the reproducer: %v", err)
		case r.cfg.Out != "":
			path := filepath.Join(r.cfg.Out, repro.FileName(r.s, rv))
			if err := os.MkdirAll(r.cfg.Out, 0o755); err != nil {
				r.note("cannot write the reproducer: %v", err)
			} else if err := os.WriteFile(path, src, 0o644); err != nil {
				r.note("cannot write the reproducer: %v", err)
			} else {
				v.Reproducer = path
			}
		default:
			v.Reproducer = string(src)
		}
	}
	r.rep.Violations = append(r.rep.Violations, v)
	r.logf("%s: %s", v.Kind, v.Message)
}

// rerun returns the command that reruns the type's tests.
func (r *typeRun) rerun() string {
	args := []string{"depcon", "test", "-seed", fmt.Sprint(r.cfg.Seed), "-type", "'^" + r.s.Plan.Name + "$'"}
	if r.cfg.Budget != DefaultBudget {
		args = append(args, "-budget", r.cfg.Budget.String())
	}
	if r.cfg.Iters != DefaultIters {
		args = append(args, "-iters", fmt.Sprint(r.cfg.Iters))
	}
	if r.cfg.MaxLen != DefaultMaxLen {
		args = append(args, "-maxlen", fmt.Sprint(r.cfg.MaxLen))
	}
	if r.cfg.Mode != testgen.ModeAll {
		args = append(args, "-mode", r.cfg.Mode)
	}
	if r.cfg.Pairs != testgen.PairsDependent {
		args = append(args, "-pairs", r.cfg.Pairs)
	}
	return strings.Join(append(args, r.s.Pkg.Path()), " ")
}

// note records a note of the type's report and logs it.
func (r *typeRun) note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.rep.Notes = append(r.rep.Notes, msg)
	r.logf("%s", msg)
}

// logf logs a -v message.
func (r *typeRun) logf(format string, args ...any) {
	if r.cfg.Verbose != nil {
		fmt.Fprintf(r.cfg.Verbose, "%s.%s: %s\n", r.s.Pkg.Path(), r.s.Plan.Name, fmt.Sprintf(format, args...))
	}
}

// progress rewrites the progress line, at most ten times a second.
func (r *typeRun) progress() {
	if r.cfg.Progress == nil || time.Since(r.lastShow) < 100*time.Millisecond {
		return
	}
	r.lastShow = time.Now()
	left := max(time.Until(r.deadline), 0).Round(time.Second)
	fmt.Fprintf(r.cfg.Progress, "\r\033[K%s: %d/%d pairs covered, %d tests, %v left",
		r.s.Plan.Name, len(r.tested), len(r.g.Targets()), r.tests, left)
}

func (r *typeRun) progressDone() {
	if r.cfg.Progress != nil {
		fmt.Fprint(r.cfg.Progress, "\r\033[K")
	}
}

func seconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond)) / float64(time.Second)
}
