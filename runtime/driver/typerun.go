package driver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/driver/internal/sched"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
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
	parent context.Context // the run's
	ctx    context.Context // the type's budget
	// confirm bounds the reproducers and replays that follow the
	// testing (see confirmWindow).
	confirmCtx context.Context
	cancel     context.CancelFunc // ends the type's testing
	cfg        Config
	*pkgRun
	s        *testgen.Subject
	g        *testgen.Generator
	rep      *typeResult
	found    []*finding // the violations of rep, in its order
	proc     *child.Proc
	start    time.Time
	deadline time.Time
	tests    int      // tests run
	skipped  int      // tests generated and not run (see sched.SkipOrder)
	starts   int      // children started
	slowest  struct { // the slowest request
		d    time.Duration
		test harness.Test
		// stuck: its calls did not return (blocked, still running,
		// or the child was killed): the time is theirs, not the
		// objects'.
		stuck bool
	}
	tested map[[2]string]bool // pairs whose suffixes ran
	linOff map[[2]string]int  // tests of a pair that found the linearizability oracle unusable
	// seqFails counts the tests of a pair whose failure its calls give
	// sequentially too, passed the pairs with a test that passed (see
	// failsSequentially).
	seqFails map[*testgen.Target]int
	passed   map[*testgen.Target]bool
	// exercised is set once a test ran its calls to an outcome that
	// says something of the type: it passed, or raced in a way a
	// contract rule sets aside (sync.WaitGroup's, callers ordering the
	// calls).
	exercised bool
	// orderedDrops counts, by pair, the races dropped because one call
	// needs the other before it (see needsOther).
	orderedDrops map[*testgen.Target]int
	// waitNoted holds the pairs with a Wait whose sync.WaitGroup race
	// was noted (see waitGroupRace).
	waitNoted map[*testgen.Target]bool
	// linVaried holds the pairs whose outcomes were seen to vary between
	// runs of one sequential order: their tests run each order twice
	// before the iterations.
	linVaried map[[2]string]bool
	seqTime   map[string]time.Duration // slowest sequential run of each method
	// failsAlone holds the methods that panicked when called alone on a
	// fresh object, with every argument set the probe tried.
	failsAlone map[string]bool
	policy     *sched.Policy // the schedules of the type's tests
	cur        struct {      // the schedule of the test being run
		sc    *harness.Schedule
		order *sched.Order
		lin   *harness.Lin
	}
}

// testType tests one type until the end of its budget or of its pairs (or
// its first violation with -first), then runs the reproducers of the
// violations found.
func testType(ctx context.Context, cfg Config, p *pkgRun, s *testgen.Subject, prog *progress) *typeResult {
	r := &typeRun{
		parent:       ctx,
		cfg:          cfg,
		pkgRun:       p,
		s:            s,
		g:            testgen.New(s, testgen.Config{Seed: cfg.Seed, Iters: cfg.Iters, MaxLen: cfg.MaxLen, Find: cfg.Find, Pairs: cfg.Pairs}),
		rep:          newTypeReport(s.Pkg.Path(), s.Plan),
		start:        time.Now(),
		tested:       map[[2]string]bool{},
		linOff:       map[[2]string]int{},
		linVaried:    map[[2]string]bool{},
		passed:       map[*testgen.Target]bool{},
		orderedDrops: map[*testgen.Target]int{},
		waitNoted:    map[*testgen.Target]bool{},
		seqTime:      map[string]time.Duration{},
	}
	depth := cfg.PCTDepth
	if depth <= 0 {
		depth = DefaultPCTDepth
	}
	r.policy = sched.New(sched.Config{Scheduler: cfg.Sched, Sites: p.sites, Gen: r.g, Seed: cfg.Seed, Type: s.Plan.Name,
		Depth: depth})
	if p.noStubs != "" {
		r.note("%s", p.noStubs)
	}
	if p.noSched != "" {
		r.note("%s", p.noSched)
	}
	for _, m := range s.Plan.Methods {
		if m.SetUp != "" {
			r.note("%s is a set-up method (%s): called in prefixes only, never concurrently", m.Name, m.SetUp)
		}
		if m.LockOff != "" {
			r.note("%s switches the type's synchronisation off (%s): never called, since what races after it "+
				"is what its caller asked for", m.Name, m.LockOff)
		}
	}
	for _, p := range s.Plan.Ignored {
		if pair, reason, ok := strings.Cut(p, ": "); ok {
			r.note("%s is not tested, as //depcon:ignore says (%s)", pair, reason)
		} else {
			r.note("%s is not tested, as //depcon:ignore says", p)
		}
	}
	if cfg.Sched == SchedAll && r.sites != nil {
		r.g.Rank(r.policy.Rank)
	}
	r.deadline = r.start.Add(cfg.Budget)
	prog.begin(r, r.deadline)
	defer func() { prog.end(r, r.rep.Confirmed()) }()
	r.ctx, r.cancel = context.WithDeadline(ctx, r.deadline)
	defer r.cancel()
	defer r.stop()
	if r.probe() {
		r.loop()
		switch {
		case r.rep.Ended != "":
		case r.parent.Err() != nil:
			r.rep.Ended = report.EndedInterrupted
		case r.ctx.Err() != nil:
			r.rep.Ended = report.EndedBudget
		default:
			r.rep.Ended = report.EndedPairs
		}
	}
	r.stop()
	if r.skipped > 0 {
		r.logf("%d %s not run: their pairs had their PCT runs, and their calls reach no order still open", r.skipped,
			plural(r.skipped, "test", "tests"))
	}
	if r.tests < fewTests && r.slowest.d > r.cfg.Budget/4 {
		r.note("%s", slowNote(r.tests, r.slowest.d, r.slowest.test, r.slowest.stuck))
	}
	if r.tests == 0 && len(r.g.Targets()) > 0 && len(r.rep.Violations) == 0 && r.rep.Skipped == "" {
		// Pairs to test, and no test ran: not "no violation found".
		why := fmt.Sprintf("the budget ended in the probes of its constructors and methods (%v)",
			time.Since(r.start).Round(100*time.Millisecond))
		if r.parent.Err() != nil {
			why = "interrupted before its first test"
		} else if r.ctx.Err() == nil {
			why = "every pair involves a method that cannot be called"
		}
		r.rep.Skipped = "no test ran: " + why
	}
	if r.tests > 0 && !r.exercised && len(r.rep.Violations) == 0 && r.rep.Skipped == "" {
		// Tests ran and none exercised a pair with calls that work,
		// which is not "no violation found" either.
		r.rep.Skipped = fmt.Sprintf("no test passed: each of its %d %s failed as its calls do one after the other, "+
			"or did not return (see the notes)", r.tests, plural(r.tests, "test", "tests"))
	}
	r.rep.PairsTested = len(r.tested)
	r.rep.stats = r.pairStats()
	r.rep.Interleavings = r.policy.Coverage()
	r.rep.TestsGenerated = r.tests
	r.rep.Elapsed = seconds(time.Since(r.start))
	var stop context.CancelFunc
	r.confirmCtx, stop = context.WithTimeout(r.parent, confirmWindow(cfg.Budget))
	defer stop()
	r.reproduceAll()
	return r.rep
}

// confirmWindow is how long the reproducers and replays of a type's
// violations may run after its testing: its budget, and at least a
// minute (a reproducer is a build and a run). What is not confirmed
// within it is reported as not run, with the reason.
func confirmWindow(budget time.Duration) time.Duration { return max(budget, time.Minute) }

// loop runs generated tests until the end of the budget or of the
// targets. A target that exposed a violation is retired: the next tests
// go to the pairs not yet found faulty. With -first, the first
// violation (other than a self-deadlock) ends the loop.
func (r *typeRun) loop() {
	if len(r.g.Targets()) == 0 {
		if n := len(r.s.Plan.Pairs); n > 0 {
			r.note("none of its %d dependent %s is tested: each involves a set-up method, a method documented "+
				"not to run concurrently, or a dependency -find leaves out", n, plural(n, "pair", "pairs"))
		} else {
			r.note("no %s pairs to test", r.cfg.Pairs)
		}
		return
	}
	for r.ctx.Err() == nil {
		if r.policy.Saturated() {
			r.rep.Ended = report.EndedSaturated
			return
		}
		c := r.g.Next()
		if c == nil {
			if r.g.Left() > 0 {
				r.note("every pair left involves a method that cannot be called")
			}
			return
		}
		v := r.ownGoroutinesOnly(r.execute(c))
		if v != nil {
			r.retire(c.Target, v)
			r.violation(v)
			if r.cfg.First && v.Kind != report.KindSelfDeadlock || r.stopsAt(v) {
				r.rep.Ended = report.EndedFirst
				return
			}
		}
	}
}

// retire stops testing target t after its violation v. A pair whose
// outcome was not linearizable is still tested, without the oracle: the
// window that gave it may hide a crash, a race or a deadlock of another
// window (tickets' Recall ∥ Sell gives both), which would not be looked
// for.
func (r *typeRun) retire(t *testgen.Target, v *finding) {
	if v.Kind == report.KindNotLinearizable && !t.Seq {
		r.linOff[[2]string{t.M1, t.M2}] = maxLinOff
		return
	}
	r.g.Retire(t)
}

// stopsAt reports whether the type's testing ends at violation v
// (Config.StopAt).
func (r *typeRun) stopsAt(v *finding) bool {
	pkg, typ := r.s.Pkg.Path(), r.s.Plan.Name
	return r.cfg.StopAt != nil && r.cfg.StopAt(pkg, typ, v.Violation) || r.cfg.stopAt != nil && r.cfg.stopAt(pkg, typ, v)
}

// do sends req to the child, starting one if needed. It returns nil when
// the budget is spent. A child that died, or may have goroutines left
// blocked, is not reused.
func (r *typeRun) do(req harness.Request) *child.Reply {
	if r.ctx.Err() != nil {
		return nil
	}
	if r.proc == nil {
		r.starts++
		r.logf("starting child %d", r.starts)
		p, err := child.Start(r.bin)
		if err != nil {
			r.note("testing stopped: %v", err)
			r.cancel()
			return nil
		}
		r.proc = p
	}
	t0 := time.Now()
	rep, err := r.proc.Do(r.ctx, req, req.HardCap+idleSlack)
	if d := time.Since(t0); d > r.slowest.d {
		r.slowest.d, r.slowest.test, r.slowest.stuck = d, req.Test, err != nil || stuck(rep)
	}
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

// fewTests is the number of tests under which a type's run is said to
// have been slow.
const fewTests = 20

// describeObjects describes the construction of a test's objects.
func describeObjects(test harness.Test) string {
	var parts []string
	for _, o := range test.Objects {
		if o.Fn == "" {
			if len(o.Args) == 1 {
				var fields []string
				for _, e := range o.Args[0].Elems {
					fields = append(fields, e.Field+": "+describeArgs([]harness.Value{e}))
				}
				parts = append(parts, "literal {"+strings.Join(fields, ", ")+"}")
				continue
			}
			parts = append(parts, "zero value")
			continue
		}
		parts = append(parts, o.Fn+"("+describeArgs(o.Args)+")")
	}
	return strings.Join(parts, ", ")
}

// slowNote says why only tests tests ran: the slowest request took d,
// test's; stuck says its calls did not return, which is then the reason,
// rather than slow objects.
func slowNote(tests int, d time.Duration, test harness.Test, stuck bool) string {
	ran := fmt.Sprintf("only %d %s in the budget", tests, plural(tests, "test ran", "tests ran"))
	if stuck {
		return fmt.Sprintf("%s: one request took %v waiting for %s, which did not return", ran, d.Round(time.Millisecond),
			describeCalls(test))
	}
	return fmt.Sprintf("%s: one request took %v (objects %s); constructor arguments that make objects slow (a large "+
		"size, a tiny interval) slow every test", ran, d.Round(time.Millisecond), describeObjects(test))
}

// describeCalls names the calls of test's suffix ("Open and Ping", or
// "Shutdown" for a probe), or its objects when it has none.
func describeCalls(test harness.Test) string {
	var fns []string
	for _, c := range test.Suffix {
		fns = append(fns, c.Fn)
	}
	if len(fns) == 0 {
		return "objects " + describeObjects(test)
	}
	return strings.Join(fns, " and ")
}

// stuck reports whether a reply says the calls of its request did not
// return: blocked, still running at the hard cap, or hung.
func stuck(rep *child.Reply) bool {
	if rep == nil || rep.Result == nil {
		return false
	}
	switch rep.Result.Status {
	case harness.StatusBlocked, harness.StatusRunning, harness.StatusHang:
		return true
	}
	return false
}

func describeArgs(args []harness.Value) string {
	var out []string
	for _, a := range args {
		switch {
		case a.K == harness.KLit:
			out = append(out, a.Lit)
		case a.K == harness.KPath && a.Lit == ".":
			out = append(out, "new-dir")
		case a.K == harness.KPath:
			out = append(out, "new-dir/"+a.Lit)
		case a.K == harness.KCall && a.Call != nil:
			out = append(out, a.Call.Fn+"("+describeArgs(a.Call.Args)+")")
		default:
			out = append(out, a.K)
		}
	}
	return strings.Join(out, ", ")
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
	wd := r.watchdog(ms...)
	req := harness.Request{Op: op, Test: test, Watchdog: wd, HardCap: max(minHardCap, 10*wd),
		MaxTime: max(time.Second, r.cfg.Budget/30)}
	if op == harness.OpRun && len(ms) == 2 && r.linOff[[2]string{ms[0], ms[1]}] < maxLinOff {
		if req.Lin = r.g.Lin(test); req.Lin != nil {
			req.Lin.Runs = 1
			if r.linVaried[[2]string{ms[0], ms[1]}] {
				req.Lin.Runs = 2
			}
		}
	}
	return req
}

// watchdog returns how long an iteration calling methods ms may run
// before it is said not to return: 50 times their slowest sequential
// run, at least minWatchdog, and at most a third of the type's budget
// (on a loaded machine a probe's slow call would otherwise leave a
// deadlock undetected until the budget ends; a call still running then,
// not blocked on a lock, is no deadlock).
func (r *typeRun) watchdog(ms ...string) time.Duration {
	var seq time.Duration
	for _, m := range ms {
		seq = max(seq, r.seqTime[m])
	}
	return min(max(minWatchdog, 50*seq), max(minWatchdog, r.cfg.Budget/3))
}

// maxLinOff is how many tests of a pair may find the linearizability
// oracle unusable (a sequential order that blocks or panics) before the
// pair's tests stop asking for it: each such test spends a watchdog on
// the order that blocks.
const maxLinOff = 2

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

func seconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond)) / float64(time.Second)
}
