package driver

import (
	"fmt"
	"go/types"
	"path"
	"slices"
	"strings"

	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/stacks"
)

// What a violation shows of its goroutines. The child's stacks and the
// race detector's report are read once (package stacks), cut to the
// user's frames here, and kept as structured values in
// Violation.Stacks; Violation.Details is rendered from them for a
// person.

// isHarnessFrame reports whether fn (a frame's function) belongs to the
// harness or to reflection, where the user's frames end.
func isHarnessFrame(fn, prefix string) bool {
	return strings.HasPrefix(fn, "reflect.") || strings.HasPrefix(fn, "runtime.call") ||
		strings.Contains(fn, "."+prefix) || strings.Contains(fn, ".(*"+prefix)
}

// isHookFrame reports whether fn is a frame of the scheduling hooks the
// rewritten package calls (between the user's frames, not below them).
func isHookFrame(fn, prefix string) bool {
	for _, h := range []string{"Point", "Locked", "Unlocked", "Wait", "Unlock"} {
		if strings.HasSuffix(fn, "."+prefix+h) {
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

// userFrames returns the frames of a stack that are the user's: from
// the call of panic when a panic was recovered (the frames below it are
// the recovery's), without the scheduling hooks, up to where the
// harness's frames begin.
func userFrames(frames []stacks.Frame, prefix string) []stacks.Frame {
	for i, f := range frames {
		if f.Func == "panic" {
			frames = frames[i:]
			break
		}
	}
	var out []stacks.Frame
	for _, f := range frames {
		switch {
		case isHookFrame(f.Func, prefix):
		case isHarnessFrame(f.Func, prefix):
			return out
		default:
			out = append(out, f)
		}
	}
	return out
}

// userStack returns s cut to the user's frames, its creation stack too.
func userStack(s stacks.Stack, prefix string) stacks.Stack {
	s.Frames = userFrames(s.Frames, prefix)
	s.Created = userFrames(s.Created, prefix)
	if len(s.Created) == 0 {
		s.Parent = 0
	}
	return s
}

// dumpStack returns the stack of the first goroutine of a dump (the
// harness sends each goroutine's alone), cut to the user's frames and
// labelled.
func dumpStack(dump, label, prefix string) stacks.Stack {
	gs := stacks.ParseDump(dump)
	if len(gs) == 0 {
		return stacks.Stack{Label: label}
	}
	s := userStack(gs[0], prefix)
	s.Label = label
	return s
}

// render writes head, then the stacks, separated by sep.
func render(head string, ss []stacks.Stack, sep string) string {
	parts := []string{}
	if head != "" {
		parts = append(parts, head)
	}
	for _, s := range ss {
		parts = append(parts, s.String())
	}
	return strings.Join(parts, sep)
}

// raceStacks returns the accesses of a race report (as parsed) cut to
// the user's frames, and the report rendered from them.
func raceStacks(accesses []stacks.Stack, prefix string) ([]stacks.Stack, string) {
	var out []stacks.Stack
	for _, s := range accesses {
		out = append(out, userStack(s, prefix))
	}
	return out, render("WARNING: DATA RACE", out, "\n")
}

// waitGroupRace reports whether a race is the one sync.WaitGroup
// reports between an Add with the counter at zero and a Wait: its write
// is the annotation of Wait, runtime.racewrite under frames of package
// sync and of Wait methods only (often elided, inlined), then the
// harness's, which userStack cuts with prefix.
func waitGroupRace(accesses []stacks.Stack, prefix string) bool {
	for _, a := range accesses {
		a = userStack(a, prefix)
		if a.Access != "write" || len(a.Frames) == 0 || a.Frames[0].Func != "runtime.racewrite" {
			continue
		}
		if !slices.ContainsFunc(a.Frames[1:], func(f stacks.Frame) bool {
			return !strings.HasPrefix(f.Func, "sync.") && !strings.HasSuffix(f.Func, ".Wait")
		}) {
			return true
		}
	}
	return false
}

// holdsWaitGroup reports whether a struct type t holds a sync.WaitGroup,
// in a field or, two levels deep, in a struct it holds or points to.
func holdsWaitGroup(t types.Type, depth int) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" &&
		n.Obj().Name() == "WaitGroup" {
		return true
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 2 {
		return false
	}
	for i := range st.NumFields() {
		if holdsWaitGroup(st.Field(i).Type(), depth+1) {
			return true
		}
	}
	return false
}

// raceSummary summarizes a race in one line: both accesses, with the
// first function of each outside the runtime, and its position.
func raceSummary(accesses []stacks.Stack) string {
	var parts []string
	for _, a := range accesses {
		if len(parts) == 2 {
			break
		}
		where := ""
		for _, f := range a.Frames {
			if strings.HasPrefix(f.Func, "runtime.") || strings.HasPrefix(f.Func, "internal/") ||
				strings.HasPrefix(f.Func, "sync/atomic.") || strings.HasPrefix(f.Func, "reflect.") {
				continue
			}
			where = fmt.Sprintf(" in %s() (%s:%d)", path.Base(f.Func), path.Base(f.File), f.Line)
			break
		}
		access := a.Access
		if strings.HasPrefix(a.Header, "Previous ") {
			access = "previous " + access
		}
		parts = append(parts, access+where)
	}
	if len(parts) == 0 {
		return "data race"
	}
	return "data race: " + strings.Join(parts, ", ")
}

// fatalStacks returns, of a fatal error's report, the goroutines that
// were running a call of the test, cut to the user's frames, and the
// error line and those goroutines rendered.
func fatalStacks(report, prefix string) ([]stacks.Stack, string) {
	first, _, _ := strings.Cut(report, "\n")
	var out []stacks.Stack
	for _, g := range stacks.ParseDump(report) {
		if runsCall(g, prefix) {
			out = append(out, userStack(g, prefix))
		}
	}
	return out, render(first, out, "\n\n")
}

// runsCall reports whether g runs a call of the test: the harness's
// invoke is among its frames.
func runsCall(g stacks.Stack, prefix string) bool {
	return slices.ContainsFunc(g.Frames, func(f stacks.Frame) bool { return isInvokeFrame(f, prefix) })
}

// isInvokeFrame reports whether f is the harness's invoke, through which
// every call of a test is made.
func isInvokeFrame(f stacks.Frame, prefix string) bool {
	return strings.HasSuffix(f.Func, "."+prefix+"invoke")
}

// suffixStacks returns the stacks of the two suffix goroutines of a
// result, labelled with their calls, and them rendered, with a line for
// a goroutine that had returned.
func (r *typeRun) suffixStacks(test harness.Test, res *harness.Message) ([]stacks.Stack, string) {
	names := suffixNames(test)
	var out []stacks.Stack
	var lines []string
	for i, st := range res.Stacks {
		label := fmt.Sprintf("goroutine %d (%s)", i+1, names[i])
		switch {
		case st != "":
			s := dumpStack(st, label, r.bin.Names.Prefix)
			out = append(out, s)
			lines = append(lines, s.String())
		case res.Waits[i] == "" && res.Goroutine != i:
			lines = append(lines, label+": returned")
		}
	}
	return out, strings.Join(lines, "\n")
}
