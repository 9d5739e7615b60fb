package driver

import (
	"go/types"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/testgen"
)

// TestDefectKey checks that a race is identified by its two access sites
// whatever the pair and the order of the accesses, and a panic by its
// first frame outside the standard library.
func TestDefectKey(t *testing.T) {
	race := func(a, b string) *Violation {
		return &Violation{Kind: KindRace, Details: "WARNING: DATA RACE\n" +
			"Write at 0x00c000012345 by goroutine 7:\n" +
			"  runtime.mapassign_faststr()\n      " + goroot + "/src/internal/runtime/maps/runtime_faststr.go:263 +0x0\n" +
			"  example.com/p.(*T).Set()\n      " + a + " +0x44\n\n" +
			"Previous read at 0x00c000012345 by goroutine 8:\n" +
			"  example.com/p.(*T).Get()\n      " + b + " +0x3c\n"}
	}
	k1 := defectKey(race("/m/p/p.go:12", "/m/p/p.go:20"))
	k2 := defectKey(race("/m/p/p.go:20", "/m/p/p.go:12"))
	if k1 == "" || k1 != k2 {
		t.Errorf("the same race in both orders: keys %q and %q", k1, k2)
	}
	if k3 := defectKey(race("/m/p/p.go:12", "/m/p/p.go:30")); k3 == k1 {
		t.Errorf("races on other lines share the key %q", k3)
	}
	p := &Violation{Kind: KindPanic, Details: "goroutine calling Get:\n" +
		"panic(...)\n      " + goroot + "/src/runtime/panic.go:100\n" +
		"example.com/p.(*T).Get(...)\n      /m/p/p.go:40 +0x1\n"}
	if got, want := defectKey(p), "panic|/m/p/p.go:40"; got != want {
		t.Errorf("panic key %q, want %q", got, want)
	}
	if got := defectKey(&Violation{Kind: KindDeadlock, Details: p.Details}); got != "" {
		t.Errorf("a deadlock has a cross-pair key %q", got)
	}
}

// TestOneReportPerDefect checks that a race seen under a second pair is
// counted on the first report, which lists the pair.
func TestOneReportPerDefect(t *testing.T) {
	r := &typeRun{rep: &TypeReport{}, s: &testgen.Subject{Pkg: types.NewPackage("example.com/p", "p"), Plan: &deps.TypePlan{Name: "T"}}}
	d := "Write at 0x1 by goroutine 7:\n  p.f()\n      /m/p.go:1 +0x1\n\nPrevious read at 0x1 by goroutine 8:\n  p.g()\n      /m/p.go:2 +0x1\n"
	r.violation(&Violation{Kind: KindRace, Pair: [2]string{"Do", "Do"}, Details: d})
	r.violation(&Violation{Kind: KindRace, Pair: [2]string{"Get", "Post"}, Details: d})
	r.violation(&Violation{Kind: KindRace, Pair: [2]string{"Get", "Post"}, Details: d})
	if n := len(r.rep.Violations); n != 1 {
		t.Fatalf("%d reports, want 1", n)
	}
	v := r.rep.Violations[0]
	if v.Count != 3 || len(v.AlsoSeenAs) != 1 || v.AlsoSeenAs[0] != "Get ∥ Post" {
		t.Errorf("count %d, also seen as %q; want 3 and [Get ∥ Post]", v.Count, v.AlsoSeenAs)
	}
}
