package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/driver/internal/repro"
	"github.com/depcon/depcon/runtime/driver/internal/sched"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/stacks"
	"github.com/depcon/depcon/runtime/testgen"
)

// violation records v, once per defect: once per (kind, pair, location),
// and a race whose two access sites, or a panic or fatal error whose top
// frame in the package's code, are those of a violation already recorded
// is that violation seen again, under another pair maybe (AlsoSeenAs).
//
// A panic or fatal error that a targeted order caused by keeping a call
// inside a window (past a point of a callee, or in a gap before it locks
// again) is the defect of that window, whichever call then failed and
// wherever (windowKey): a table published before it is filled breaks
// every reader at its own line.
//
// A defect first seen as a contract question (two methods neither of
// which synchronises) and then through a pair that is no question (one
// of them locks: Get ∥ Inc after Inc ∥ Inc) is a bug: v takes the
// question's place. So does a defect first seen in a test that passed an
// object to its own method (listed apart) and then in one that did not.
func (r *typeRun) violation(v *finding) {
	v.key, v.defect, v.window = violationKey(v.Violation), defectKey(v.Violation), windowKey(v)
	self := passesItself(v.test)
	for i, u := range r.found {
		if u.key == v.key || v.defect != "" && u.defect == v.defect || v.window != "" && u.window == v.window {
			if u.Question != "" && v.Question == "" || u.SelfArg && !self {
				r.record(v)
				v.Count += u.Count
				v.AlsoSeenAs = append(v.AlsoSeenAs, u.Pair)
				r.found = slices.Delete(r.found, i, i+1)
				r.rep.Violations = slices.Delete(r.rep.Violations, i, i+1)
				return
			}
			u.Count++
			if v.Pair != u.Pair && !slices.Contains(u.AlsoSeenAs, v.Pair) {
				u.AlsoSeenAs = append(u.AlsoSeenAs, v.Pair)
			}
			r.logf("%s again: %s", v.Kind, v.Message)
			return
		}
	}
	r.record(v)
}

// record records v as a new violation.
func (r *typeRun) record(v *finding) {
	v.Count = 1
	v.Seed = r.cfg.Seed
	v.TestsBefore = max(r.tests-1, 0)
	v.Elapsed = seconds(time.Since(r.start))
	v.Rerun = r.rerun()
	v.SelfArg = passesItself(v.test)
	v.Reproduced = report.ReproNotRun
	r.found = append(r.found, v)
	r.rep.Violations = append(r.rep.Violations, v.Violation)
	r.logf("%s: %s", v.Kind, v.Message)
}

// reproduceAll writes and runs the reproducers of the type's violations,
// after its testing: their builds do not eat its budget. They are built
// into one test binary, each run by its name.
func (r *typeRun) reproduceAll() {
	var files []reproFile
	for _, v := range r.found {
		if v.test.Type == "" {
			continue
		}
		rv := r.reproViolation(v)
		src, err := repro.Source(r.s, rv)
		if err != nil {
			r.note("cannot write the reproducer: %v", err)
			v.ReproOutput = err.Error()
			continue
		}
		files = append(files, reproFile{v: v, name: repro.FileName(r.s, rv), test: repro.TestName(r.s, rv), src: src})
	}
	batch := reproBatch(files)
	for _, f := range files {
		r.reproducer(f, batch)
		r.logf("%s %s ∥ %s: reproducer failed: %s", f.v.Kind, f.v.Pair[0], f.v.Pair[1], f.v.Reproduced)
	}
}

// A reproFile is the reproducer test file written for a violation.
type reproFile struct {
	v    *finding
	name string // the file's name
	test string // its test function
	src  []byte
}

// reproBatch returns the files of the reproducers that can share a test
// binary: those whose file and test names no other one has.
func reproBatch(files []reproFile) map[string][]byte {
	seen := map[string]int{}
	for _, f := range files {
		seen[f.name]++
		seen["func "+f.test]++
	}
	batch := map[string][]byte{}
	for _, f := range files {
		if seen[f.name] == 1 && seen["func "+f.test] == 1 {
			batch[f.name] = f.src
		}
	}
	return batch
}

// reproViolation returns what the reproducer of v is written from.
func (r *typeRun) reproViolation(v *finding) *repro.Violation {
	// Stress the reproducer harder than one test: a deadlock window is
	// narrow, and a passing iteration costs little.
	rv := &repro.Violation{Kind: v.Kind, Message: v.Message, Seed: v.Seed, Test: v.test,
		Iters: 10 * r.cfg.Iters, Seq: v.Alone, Schedule: v.Schedule, Replay: v.Rerun, Lin: v.lin,
		Wait: reproWait(r.watchdog(v.Pair[0], v.Pair[1]))}
	switch {
	case v.Alone:
		rv.Iters = 1
	case v.Kind == report.KindDeadlock:
		rv.Iters = 100 * r.cfg.Iters
	}
	return rv
}

// reproducer runs the reproducer f in the package, in the test binary of
// batch when f is one of its files, and records whether it failed; then
// replays a violation found under a schedule, and keeps or writes the
// reproducer.
func (r *typeRun) reproducer(f reproFile, batch map[string][]byte) {
	v, src := f.v, f.src
	files := map[string][]byte{f.name: src}
	if _, ok := batch[f.name]; ok {
		files = batch
	}
	runs := reproRuns
	if v.sched != nil {
		runs = 1 // the replays under its schedule confirm it if the reproducer misses its window
	}
	v.Reproduced, v.ReproOutput = r.runReproducer(v.Kind, files, f.name, f.test, runs)
	if v.sched != nil && !r.cfg.NoReproduce {
		most := replays
		if v.Reproduced == report.ReproYes {
			most = 1 // the replay says the schedule replays it; the reproducer confirmed it
		}
		n, runs := r.replay(v, most)
		v.Replayed = replayed(n, runs)
		switch {
		case v.Reproduced == report.ReproYes:
		case n > 0:
			v.Reproduced = report.ReproYes
			v.ReproOutput = fmt.Sprintf("the reproducer (a stress test, without the schedule) passed; the test "+
				"replayed under its schedule (%s) failed in %s runs: %s", v.Schedule, v.Replayed, v.Rerun)
		default:
			if o, count := r.replayOrders(v); o != nil {
				v.Reproduced = report.ReproYes
				v.ReproOutput = fmt.Sprintf("the reproducer (a stress test, without the schedule) passed, and so "+
					"did the test replayed under its schedule (%s, %s runs failed); replayed under %s it failed in "+
					"%s runs: %s", v.Schedule, v.Replayed, sched.Describe(&harness.Schedule{Kind: harness.SchedTargeted}, o),
					count, v.Rerun)
			}
		}
	}
	if r.cfg.Out == "" {
		v.Reproducer = string(src)
		return
	}
	path := filepath.Join(r.cfg.Out, f.name)
	if err := os.MkdirAll(r.cfg.Out, 0o755); err != nil {
		r.note("cannot write the reproducer: %v", err)
	} else if err := os.WriteFile(path, src, 0o644); err != nil {
		r.note("cannot write the reproducer: %v", err)
	} else {
		v.Reproducer = path
	}
}

// reproWait is how long a reproducer's calls may run before it says
// they do not return, for an iteration watchdog wd: five times it, at
// least a second. The calls ran in far less sequentially (wd is 50 times
// that), and a reproducer of a deadlock waits that long once per run.
func reproWait(wd time.Duration) time.Duration { return max(time.Second, 5*wd) }

// reproTimeout bounds one run of a reproducer, its build included.
const reproTimeout = 3 * time.Minute

// reproRuns is how many times a reproducer that passes is run again
// before a violation found without a schedule is left unconfirmed: a
// race window may be missed.
const reproRuns = 2

// runReproducer runs the reproducer test name of file, built with files
// (file among them) in the package, and returns whether it failed, with
// the end of its output. When the files do not build together, file is
// built alone.
func (r *typeRun) runReproducer(kind string, files map[string][]byte, file, name string, runs int) (string, string) {
	if r.cfg.NoReproduce {
		return report.ReproNotRun, ""
	}
	var out string
	for range runs {
		if r.parent.Err() != nil {
			return report.ReproNotRun, "interrupted"
		}
		if r.confirmCtx.Err() != nil {
			return report.ReproNotRun, fmt.Sprintf("not confirmed: the %v the type's reproducers and replays may take had "+
				"ended", confirmWindow(r.cfg.Budget))
		}
		res, err := child.RunTest(r.confirmCtx, r.work, r.target, files, "^"+name+"$", reproTimeout, r.jail)
		if err != nil && len(files) > 1 && r.confirmCtx.Err() == nil {
			files = map[string][]byte{file: files[file]}
			res, err = child.RunTest(r.confirmCtx, r.work, r.target, files, "^"+name+"$", reproTimeout, r.jail)
		}
		if err != nil {
			if r.confirmCtx.Err() != nil && r.parent.Err() == nil {
				// It ran as long as the type's confirmation may take and
				// did not fail: as good as passed, and not counted.
				return report.ReproNo, fmt.Sprintf("not confirmed: the %v the type's reproducers and replays may take "+
					"ended while it ran, and it had not failed", confirmWindow(r.cfg.Budget))
			}
			if r.parent.Err() != nil {
				return report.ReproNotRun, "interrupted while it ran"
			}
			return report.ReproNotRun, err.Error()
		}
		out = res.Output
		if !res.Passed {
			if !failsAs(kind, res) {
				// It failed, but not as the violation did (a constructor
				// that failed this time, a timeout of the test binary):
				// that does not confirm it.
				return report.ReproNo, tail(out, 2000)
			}
			return report.ReproYes, tail(out, 2000)
		}
	}
	return report.ReproNo, tail(out, 2000)
}

// failsAs reports whether a failed reproducer failed the way a violation
// of kind does: with the message its test prints for that kind, or with
// a data race (which the race detector may report before a panic, a
// deadlock or a fatal error it leads to); never when it failed in its
// set-up, before the calls it reproduces.
func failsAs(kind string, res *child.TestResult) bool {
	if res.OutOfMemory {
		return false // the isolation's memory bound ended it: that is no failure of the type
	}
	if strings.Contains(res.Output, repro.SetupFailed) {
		return false // it failed before the calls it reproduces
	}
	if res.Race || strings.Contains(res.Output, "WARNING: DATA RACE") {
		return true
	}
	switch kind {
	case report.KindPanic:
		// Recovered in a goroutine of the test, or, in a goroutine the
		// method started, ending the process.
		return strings.Contains(res.Output, " panicked: ") || !res.TimedOut && strings.Contains(res.Output, "panic: ")
	case report.KindDeadlock:
		return strings.Contains(res.Output, "deadlock: ")
	case report.KindSelfDeadlock:
		return strings.Contains(res.Output, "self-deadlock: ")
	case report.KindNotLinearizable:
		return strings.Contains(res.Output, "not linearizable: ")
	case report.KindFatal:
		return strings.Contains(res.Output, "fatal error: ") ||
			!res.TimedOut && (strings.Contains(res.Output, "panic: ") || res.ExitCode > 1)
	}
	return false
}

// tail returns the last n bytes of s, from a line start.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// violationKey identifies a violation: its kind, its pair, and where it
// happened (the first frame of the user's code in its details).
func violationKey(v *report.Violation) string {
	return fmt.Sprintf("%s|%s|%s|%d|%s", v.Kind, v.Pair[0], v.Pair[1], v.Objects, firstFrame(v.Stacks))
}

// defectKey returns what identifies the defect behind v whatever pair
// showed it: the kind and, for a race, its two access sites (the first
// frame outside the standard library of each access, in either order),
// or its write's alone when the other access is a read;
// for a panic or a fatal error, the first such frame of its report; for
// a deadlock, the sites where its goroutines are blocked (the first such
// frame of each: one lock cycle, or one lock that a goroutine the calls
// left holds, whichever calls entered it); for a non-linearizable outcome, the two sites of its static
// evidence. It returns "" for the other kinds, or when the report has no
// such frames.
func defectKey(v *report.Violation) string {
	switch v.Kind {
	case report.KindRace:
		var sites []string
		var writes []bool
		for _, a := range v.Stacks {
			if f, ok := a.FirstUser(); ok && a.Access != "" {
				sites = append(sites, f.Pos())
				writes = append(writes, a.Write())
			}
		}
		if len(sites) < 2 {
			return ""
		}
		if writes[0] != writes[1] {
			// A write racing with reads: the defect is at the write
			// (made without the lock the readers take, or under a read
			// lock), whichever method reads.
			if writes[1] {
				return v.Kind + "|write|" + sites[1]
			}
			return v.Kind + "|write|" + sites[0]
		}
		slices.Sort(sites[:2])
		return v.Kind + "|" + sites[0] + "|" + sites[1]
	case report.KindNotLinearizable:
		// The same gap between two critical sections (or atomic
		// operations), whichever call ran in it.
		if len(v.Evidence) > 0 {
			e := v.Evidence[0]
			return v.Kind + "|" + e.Pos1 + "|" + e.Pos2
		}
	case report.KindPanic, report.KindFatal:
		for _, s := range v.Stacks {
			if f, ok := s.FirstUser(); ok {
				return v.Kind + "|" + f.Pos()
			}
		}
	case report.KindDeadlock:
		var sites []string
		for _, s := range v.Stacks {
			if f, ok := s.FirstUser(); ok && !slices.Contains(sites, f.Pos()) {
				sites = append(sites, f.Pos())
			}
		}
		if len(sites) > 0 {
			slices.Sort(sites)
			return v.Kind + "|" + strings.Join(sites, "|")
		}
	}
	return ""
}

// windowKey returns what identifies the defect behind a panic or fatal
// error that a targeted order caused by keeping one call past a point
// (of its method, or of a callee) until the other call went past its
// side: the kind and that point, the window's start. It returns "" for
// the other violations.
func windowKey(v *finding) string {
	if v.Kind != report.KindPanic && v.Kind != report.KindFatal || v.sched == nil || v.sched.Kind != harness.SchedTargeted {
		return ""
	}
	for _, h := range v.sched.Holds {
		if h.Past != 0 {
			return fmt.Sprintf("%s|window|%d", v.Kind, h.Past)
		}
	}
	return ""
}

// firstFrame returns the position of the innermost frame of the first
// of stacks that has one, "" when none has.
func firstFrame(ss []stacks.Stack) string {
	for _, s := range ss {
		if len(s.Frames) > 0 {
			return s.Frames[0].Pos()
		}
	}
	return ""
}

// passesItself reports whether a suffix call of test is passed its own
// receiver (a.M(a)).
func passesItself(test harness.Test) bool { return slices.ContainsFunc(test.Suffix, testgen.PassesOwn) }

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
	if r.cfg.Sched != SchedAll && r.cfg.Sched != "" {
		args = append(args, "-sched", r.cfg.Sched)
	}
	if r.cfg.PCTDepth != DefaultPCTDepth && r.cfg.PCTDepth != 0 {
		args = append(args, "-pct-depth", fmt.Sprint(r.cfg.PCTDepth))
	}
	if r.cfg.Find != testgen.FindAll {
		args = append(args, "-find", r.cfg.Find)
	}
	if r.cfg.Strict {
		args = append(args, "-strict")
	}
	if r.cfg.Pairs != testgen.PairsDependent {
		args = append(args, "-pairs", r.cfg.Pairs)
	}
	return strings.Join(append(args, r.s.Pkg.Path()), " ")
}
