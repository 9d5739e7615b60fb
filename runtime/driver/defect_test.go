package driver

import (
	"fmt"
	"go/build"
	"go/types"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/stacks"
	"github.com/depcon/depcon/runtime/testgen"
)

// TestDefectKey checks that a race of a write with a read is identified
// by its write's site, whatever the pair, the order of the accesses and
// the reader, a race of two writes by both sites in either order, and a
// panic by its first frame outside the standard library.
func TestDefectKey(t *testing.T) {
	goroot := build.Default.GOROOT
	race := func(first, a, second, b string) *report.Violation {
		return &report.Violation{Kind: report.KindRace, Stacks: stacks.ParseRace("WARNING: DATA RACE\n" +
			first + " at 0x00c000012345 by goroutine 7:\n" +
			"  runtime.mapassign_faststr()\n      " + goroot + "/src/internal/runtime/maps/runtime_faststr.go:263 +0x0\n" +
			"  example.com/p.(*T).Set()\n      " + a + " +0x44\n\n" +
			second + " at 0x00c000012345 by goroutine 8:\n" +
			"  example.com/p.(*T).Get()\n      " + b + " +0x3c\n")}
	}
	k1 := defectKey(race("Write", "/m/p/p.go:12", "Previous read", "/m/p/p.go:20"))
	k2 := defectKey(race("Read", "/m/p/p.go:20", "Previous write", "/m/p/p.go:12"))
	if k1 == "" || k1 != k2 {
		t.Errorf("the same race in both orders: keys %q and %q", k1, k2)
	}
	if k3 := defectKey(race("Write", "/m/p/p.go:12", "Previous read", "/m/p/p.go:30")); k3 != k1 {
		t.Errorf("the same write racing with another reader: key %q, want %q", k3, k1)
	}
	if k4 := defectKey(race("Write", "/m/p/p.go:14", "Previous read", "/m/p/p.go:20")); k4 == k1 {
		t.Errorf("another write shares the key %q", k4)
	}
	w1 := defectKey(race("Write", "/m/p/p.go:12", "Previous write", "/m/p/p.go:20"))
	w2 := defectKey(race("Write", "/m/p/p.go:20", "Previous write", "/m/p/p.go:12"))
	if w1 == "" || w1 != w2 || w1 == k1 {
		t.Errorf("two writes: keys %q and %q (a write and a read: %q)", w1, w2, k1)
	}
	p := &report.Violation{Kind: report.KindPanic, Stacks: stacks.ParseDump("goroutine 7 [running]:\n" +
		"panic(...)\n\t" + goroot + "/src/runtime/panic.go:100\n" +
		"example.com/p.(*T).Get(...)\n\t/m/p/p.go:40 +0x1\n")}
	if got, want := defectKey(p), "panic|/m/p/p.go:40"; got != want {
		t.Errorf("panic key %q, want %q", got, want)
	}
	if got, want := defectKey(&report.Violation{Kind: report.KindDeadlock, Stacks: p.Stacks}), "deadlock|/m/p/p.go:40"; got != want {
		t.Errorf("deadlock of one blocked goroutine: key %q, want %q", got, want)
	}
	// The same lock cycle entered through other calls (On ∥ On, Off ∥
	// Add: both block in listen and in the merger) is one defect; another
	// cycle is another.
	blocked := func(a, b, c string) *report.Violation {
		dump := ""
		for i, site := range []string{a, b, c} {
			dump += fmt.Sprintf("goroutine %d [sync.Mutex.Lock]:\nsync.(*Mutex).Lock(...)\n\t%s/src/sync/mutex.go:90 +0x1\n"+
				"example.com/p.(*G).f%d(...)\n\t%s +0x1\nexample.com/p.(*G).On%d(...)\n\t/m/p/p.go:%d +0x1\n\n", i+1, goroot, i, site, i, 90+i)
		}
		return &report.Violation{Kind: report.KindDeadlock, Stacks: stacks.ParseDump(dump)}
	}
	d1 := defectKey(blocked("/m/p/p.go:10", "/m/p/p.go:20", "/m/p/p.go:20"))
	d2 := defectKey(blocked("/m/p/p.go:20", "/m/p/p.go:10", "/m/p/p.go:10"))
	d3 := defectKey(blocked("/m/p/p.go:10", "/m/p/p.go:30", "/m/p/p.go:30"))
	if d1 == "" || d1 != d2 || d1 == d3 {
		t.Errorf("deadlock keys %q, %q (the same sites), %q (others)", d1, d2, d3)
	}
}

// TestOneReportPerDefect checks that a race seen under a second pair is
// counted on the first report, which lists the pair.
func TestOneReportPerDefect(t *testing.T) {
	r := &typeRun{rep: &typeResult{TypeReport: &report.TypeReport{}}, s: &testgen.Subject{Pkg: types.NewPackage("example.com/p", "p"), Plan: &deps.TypePlan{Name: "T"}}}
	d := "Write at 0x1 by goroutine 7:\n  p.f()\n      /m/p.go:1 +0x1\n\nPrevious read at 0x1 by goroutine 8:\n  p.g()\n      /m/p.go:2 +0x1\n"
	r.violation(&finding{Violation: &report.Violation{Kind: report.KindRace, Pair: [2]string{"Do", "Do"}, Stacks: stacks.ParseRace(d)}})
	r.violation(&finding{Violation: &report.Violation{Kind: report.KindRace, Pair: [2]string{"Get", "Post"}, Stacks: stacks.ParseRace(d)}})
	r.violation(&finding{Violation: &report.Violation{Kind: report.KindRace, Pair: [2]string{"Get", "Post"}, Stacks: stacks.ParseRace(d)}})
	if n := len(r.rep.Violations); n != 1 {
		t.Fatalf("%d reports, want 1", n)
	}
	v := r.rep.Violations[0]
	if v.Count != 3 || len(v.AlsoSeenAs) != 1 || v.AlsoSeenAs[0] != [2]string{"Get", "Post"} {
		t.Errorf("count %d, also seen as %q; want 3 and [Get ∥ Post]", v.Count, v.AlsoSeenAs)
	}
}

// TestPassesItself checks the mark of a violation whose call is passed
// its own receiver (a.Equal(a)), and not one passed the other object.
func TestPassesItself(t *testing.T) {
	self := harness.Value{K: harness.KObj, Obj: 0}
	if !passesItself(harness.Test{Suffix: []harness.Call{{Fn: "Len"}, {Recv: 0, Fn: "Equal", Args: []harness.Value{self}}}}) {
		t.Error("a.Equal(a) not marked")
	}
	if passesItself(harness.Test{Suffix: []harness.Call{{Recv: 1, Fn: "Equal", Args: []harness.Value{self}}, {Fn: "Len"}}}) {
		t.Error("b.Equal(a) marked")
	}
}

// TestOneReportPerWindow checks that panics at different lines, caused
// by targeted orders that kept a call in the same window, are one
// defect, and that another window is another.
func TestOneReportPerWindow(t *testing.T) {
	r := &typeRun{rep: &typeResult{TypeReport: &report.TypeReport{}}, s: &testgen.Subject{Pkg: types.NewPackage("example.com/p", "p"), Plan: &deps.TypePlan{Name: "T"}}}
	panicAt := func(pair [2]string, line string, past int) *finding {
		return &finding{Violation: &report.Violation{Kind: report.KindPanic, Pair: pair,
			Stacks: stacks.ParseDump("goroutine 7 [running]:\nexample.com/p.(*T).Get(...)\n\t/m/p/p.go:" + line + " +0x1\n")},
			sched: &harness.Schedule{Kind: harness.SchedTargeted, Holds: []harness.Hold{{G: 0, Past: past, UntilSite: 3}, {G: 1, UntilSite: past}}}}
	}
	r.violation(panicAt([2]string{"Get", "Get"}, "40", 7))
	r.violation(panicAt([2]string{"Len", "Get"}, "50", 7))
	if n := len(r.rep.Violations); n != 1 {
		t.Fatalf("%d violations for one window, want 1", n)
	}
	if v := r.rep.Violations[0]; v.Count != 2 || len(v.AlsoSeenAs) != 1 {
		t.Errorf("count %d, also seen as %q; want 2 and [Len ∥ Get]", v.Count, v.AlsoSeenAs)
	}
	r.violation(panicAt([2]string{"Sum", "Get"}, "60", 9))
	if n := len(r.rep.Violations); n != 2 {
		t.Errorf("%d violations for two windows, want 2", n)
	}
}

// TestSelfArgReplaced checks that a defect first seen in a test passing
// an object to its own method, which is listed apart, is counted as the
// type's once a test that does not shows it.
func TestSelfArgReplaced(t *testing.T) {
	r := &typeRun{rep: &typeResult{TypeReport: &report.TypeReport{}}, s: &testgen.Subject{Pkg: types.NewPackage("example.com/p", "p"), Plan: &deps.TypePlan{Name: "T"}}}
	d := "Write at 0x1 by goroutine 7:\n  p.f()\n      /m/p.go:1 +0x1\n\nPrevious read at 0x1 by goroutine 8:\n  p.g()\n      /m/p.go:2 +0x1\n"
	self := harness.Value{K: harness.KObj, Obj: 0}
	r.violation(&finding{Violation: &report.Violation{Kind: report.KindRace, Pair: [2]string{"Log", "Log"}, Stacks: stacks.ParseRace(d)},
		test: harness.Test{Suffix: []harness.Call{{Fn: "Log", Args: []harness.Value{self}}, {Fn: "Log"}}}})
	if n := len(r.rep.Violations); n != 1 || !r.rep.Violations[0].SelfArg {
		t.Fatalf("%d reports (%+v), want 1 passing its own object", n, r.rep.Violations)
	}
	r.violation(&finding{Violation: &report.Violation{Kind: report.KindRace, Pair: [2]string{"Log", "Reset"}, Stacks: stacks.ParseRace(d)},
		test: harness.Test{Suffix: []harness.Call{{Fn: "Log"}, {Fn: "Reset"}}}})
	if n := len(r.rep.Violations); n != 1 {
		t.Fatalf("%d reports, want 1", n)
	}
	if v := r.rep.Violations[0]; v.SelfArg || v.Count != 2 || v.Pair != [2]string{"Log", "Reset"} {
		t.Errorf("self %v, count %d, pair %q: want the report of Log ∥ Reset, seen twice", v.SelfArg, v.Count, v.Pair)
	}
}
