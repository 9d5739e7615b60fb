package driver

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/testgen"
)

// A candidate is a failure of a concurrent run that is a violation only
// if no sequential order of the two calls reproduces it.
type candidate struct {
	kind      string // KindPanic, KindDeadlock or KindFatal
	goroutine int    // the suffix that panicked, or -1
	death     string // how the child died, "" if it answered
	msg       string
	details   string
}

// seqRepeats is how many times each sequential order is run before a
// concurrent failure is taken for a violation: a failure that depends on
// timing (a timeout, a clock) may show in one sequential run only.
const seqRepeats = 2

// confirm runs both sequential orders of the suffixes of test, each
// seqRepeats times in a fresh child, and returns the violation when none
// reproduces cand.
func (r *typeRun) confirm(c *testgen.Case, test harness.Test, cand *candidate) *Violation {
	for i := range 2 * seqRepeats {
		order := [2]int{i % 2, 1 - i%2}
		seq := test
		seq.Suffix = []harness.Call{test.Suffix[order[0]], test.Suffix[order[1]]}
		r.stop()
		rep := r.do(r.request(harness.OpSeq, seq, c.Target.M1, c.Target.M2))
		if rep == nil || reproduces(cand, rep, order) {
			if rep != nil {
				r.logf("test %d: %s %s, but also sequentially (%s;%s): %s", r.tests, cand.kind, cand.msg,
					seq.Suffix[0].Fn, seq.Suffix[1].Fn, outcome(rep))
			}
			return nil
		}
	}
	names := suffixNames(test)
	msg := fmt.Sprintf("%s; neither %s; %s nor %s; %s does so sequentially", cand.msg, names[0], names[1], names[1], names[0])
	return r.newViolation(c, test, cand.kind, msg, cand.details)
}

// reproduces reports whether the sequential run rep, of the suffixes in
// order, reproduces cand. An inconclusive run counts as reproducing it, so
// that nothing is reported on doubt.
func reproduces(cand *candidate, rep *child.Reply, order [2]int) bool {
	if d := rep.Death; d != nil {
		switch cand.kind {
		case KindDeadlock:
			return d.Kind == child.DeathKilled
		case KindPanic:
			return d.Kind != child.DeathExit && d.Kind != child.DeathKilled
		}
		return cand.death == "" || d.Kind == cand.death || d.Kind == child.DeathRace
	}
	switch res := rep.Result; res.Status {
	case harness.StatusOK:
		return false
	case harness.StatusPanic:
		return cand.kind == KindPanic && (cand.goroutine < 0 || order[res.Goroutine] == cand.goroutine)
	case harness.StatusBlocked, harness.StatusRunning:
		return cand.kind == KindDeadlock
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

// stacks shows the stacks of the two suffix goroutines of a result.
func (r *typeRun) stacks(test harness.Test, res *harness.Message) string {
	names := suffixNames(test)
	var b strings.Builder
	for i, st := range res.Stacks {
		switch {
		case st != "":
			fmt.Fprintf(&b, "goroutine %d (%s):\n%s\n", i+1, names[i], trimStack(st, r.bin.Names.Prefix))
		case res.Waits[i] == "" && res.Goroutine != i:
			fmt.Fprintf(&b, "goroutine %d (%s): returned\n", i+1, names[i])
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// isHarnessFrame reports whether a function line of a stack belongs to
// the harness or to reflection, where the user's frames end.
func isHarnessFrame(fn, prefix string) bool {
	fn = strings.TrimSpace(fn)
	return strings.HasPrefix(fn, "reflect.") || strings.HasPrefix(fn, "runtime.call") ||
		strings.Contains(fn, "."+prefix) || strings.Contains(fn, ".(*"+prefix)
}

// trimStack cuts a goroutine's stack (from a dump or debug.Stack) where
// the harness frames begin. The stack of a recovered panic starts at the
// call of panic.
func trimStack(stack, prefix string) string {
	lines := strings.Split(strings.TrimRight(stack, "\n"), "\n")
	out := lines[:1]
	from := 1
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") {
			from = i
			break
		}
	}
	skip := false // the file line of a hook frame
	for _, l := range lines[from:] {
		if strings.HasPrefix(l, "\t") {
			if !skip {
				out = append(out, l)
			}
			skip = false
			continue
		}
		if isHookFrame(l, prefix) {
			skip = true
			continue
		}
		if isHarnessFrame(l, prefix) {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// isHookFrame reports whether the function line fn is a frame of the
// scheduling hooks the rewritten package calls (between the user's
// frames, not below them).
func isHookFrame(fn, prefix string) bool {
	fn = strings.TrimSpace(fn)
	for _, h := range []string{"Point(", "Locked(", "Unlocked(", "Wait(", "Unlock("} {
		if strings.Contains(fn, "."+prefix+h) {
			return true
		}
	}
	for _, t := range []string{"dispatcher", "scheduler", "tracer"} {
		if strings.Contains(fn, ".(*"+prefix+t+").") {
			return true
		}
	}
	return false
}

var raceAccessRE = regexp.MustCompile(`^(.*) at 0x[0-9a-f]+ by .*:$`)

// raceSummary summarizes a race report in one line: both accesses, with
// the first function of each outside the runtime, and its position.
func raceSummary(report string) string {
	lines := strings.Split(report, "\n")
	var parts []string
	for i := 0; i < len(lines) && len(parts) < 2; i++ {
		m := raceAccessRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		where := ""
		for j := i + 1; j+1 < len(lines) && strings.HasPrefix(lines[j], "  "); j += 2 {
			fn := strings.TrimSpace(lines[j])
			if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "internal/") || strings.HasPrefix(fn, "sync/atomic.") ||
				strings.HasPrefix(fn, "reflect.") {
				continue
			}
			pos, _, _ := strings.Cut(strings.TrimSpace(lines[j+1]), " ")
			where = fmt.Sprintf(" in %s (%s)", path.Base(fn), path.Base(pos))
			break
		}
		parts = append(parts, strings.ToLower(m[1])+where)
	}
	if len(parts) == 0 {
		return "data race"
	}
	return "data race: " + strings.Join(parts, ", ")
}

// trimRace keeps, of a race report, the two accesses with the user's
// frames only, and drops where the harness goroutines were created.
func trimRace(report, prefix string) string {
	var out []string
	skip := false
	for _, l := range strings.Split(strings.TrimRight(report, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "Goroutine "):
			skip = true
			continue
		case l != "" && !strings.HasPrefix(l, " "):
			skip = false
		case strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "      ") && isHarnessFrame(l, prefix):
			skip = true
		}
		if !skip {
			out = append(out, l)
		}
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// fatalGoroutines keeps, of a fatal error's report, the error line and
// the goroutines that were running a call of the test.
func fatalGoroutines(report, prefix string) string {
	first, _, _ := strings.Cut(report, "\n")
	out := []string{first}
	for _, g := range harness.ParseGoroutines(report) {
		if strings.Contains(g.Stack, prefix+"invoke(") {
			out = append(out, trimStack(g.Stack, prefix))
		}
	}
	return strings.Join(out, "\n\n")
}
