package repro

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/testgen"
)

func lit(s string) harness.Value { return harness.Value{K: harness.KLit, Lit: s} }

func objv(i int) harness.Value { return harness.Value{K: harness.KObj, Obj: i} }

// storeSubject loads testdata/p and returns its directory and the
// subject of its Store with methods ms.
func storeSubject(t *testing.T, ms ...string) (string, *testgen.Subject) {
	t.Helper()
	dir, err := filepath.Abs("testdata/p")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := load.Packages(dir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	var methods []deps.Method
	for _, m := range ms {
		methods = append(methods, deps.Method{Name: m})
	}
	s, err := testgen.NewSubject(pkgs[0].Types, &deps.TypePlan{Name: "Store", Methods: methods})
	if err != nil {
		t.Fatal(err)
	}
	return dir, s
}

// runReproducers writes the reproducers srcs, by file name, into a copy
// of the package in dir and runs go test on it with -run pattern run;
// it returns go test's output and error.
func runReproducers(t *testing.T, dir string, srcs map[string][]byte, run string) ([]byte, error) {
	t.Helper()
	mod := t.TempDir()
	if err := os.CopyFS(mod, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	for name, src := range srcs {
		if err := os.WriteFile(filepath.Join(mod, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", run, ".")
	cmd.Dir = mod
	return cmd.CombinedOutput()
}

// TestSourceCompiles writes reproducers using every kind of value, and
// those of non-linearizable outcomes with no result to render and with
// results and an observer's (showSource), and checks that they compile
// with the package and pass (the package has no bug).
func TestSourceCompiles(t *testing.T) {
	dir, s := storeSubject(t, "Each", "Err", "Fill", "Len", "Link", "Put", "Set")
	opts := &harness.Call{Fn: "DefaultOptions", Args: []harness.Value{lit("3")}}
	test := harness.Test{
		Type: "Store",
		Objects: []harness.Call{
			{Fn: "NewStore", Args: []harness.Value{{K: harness.KCall, Call: opts}, lit("max")}},
			{Fn: "NewStoreValue"},
		},
		Prefix: []harness.Call{
			{Recv: 0, Fn: "Link", Args: []harness.Value{objv(1), objv(1), objv(1)}},
			{Recv: 1, Fn: "Link", Args: []harness.Value{objv(0), objv(0), {K: harness.KLit, Lit: "a", Basic: "string"}}},
			{Recv: 0, Fn: "Put", Args: []harness.Value{lit(""), lit("min")}},
		},
		Suffix: []harness.Call{
			{Recv: 0, Fn: "Set", Args: []harness.Value{lit("max"), lit("max"), lit("-1"),
				{K: harness.KCall, Call: opts}, {K: harness.KSlice, Elems: []harness.Value{{K: harness.KZero}}}}},
			{Recv: 1, Fn: "Fill", Args: []harness.Value{
				{K: harness.KSlice, Elems: []harness.Value{lit("97"), lit("97")}},
				{K: harness.KSlice},
				{K: harness.KMap},
				{K: harness.KChan},
				{K: harness.KChan},
			}},
		},
	}
	seq := harness.Test{Type: "Store", Objects: []harness.Call{{}},
		Suffix: []harness.Call{{Fn: "Each", Args: []harness.Value{{K: harness.KCtx}, {K: harness.KFunc}}}}}
	// A non-linearizable outcome of results and of an observer, which
	// the reproducer renders as the harness does.
	observed := harness.Test{Type: "Store", Objects: []harness.Call{{}, {}},
		Suffix: []harness.Call{{Recv: 0, Fn: "Len"}, {Recv: 1, Fn: "Err"}}}
	mod := t.TempDir()
	if err := os.CopyFS(mod, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	schedule, replay := "targeted b·a (a = Set at p.go:3:1, b = Fill at p.go:9:1)", "depcon test -seed 7 -type '^Store$' ./p"
	// What the reproducers of test have.
	wants := []string{"package p", "v1, err2 := NewStore(DefaultOptions(3), math.MaxInt8)",
		"b := &v3", "for iter := 0; iter < 3; iter++ {", "a.Link(b, *b, b)", "seed 7",
		"under the schedule targeted b·a (a = Set", "// schedule: depcon test -seed 7 -type '^Store$' ./p"}
	for _, tc := range []struct {
		v     *Violation
		wait  string // tabs left out
		wants []string
	}{
		{&Violation{Kind: "race", Message: "data race", Seed: 7, Test: test, Iters: 3, Schedule: schedule, Replay: replay},
			"time.After(5 * time.Second):\nt.Fatal(\"deadlock: a.Set and b.Fill did not return within 5s\")", wants},
		{&Violation{Kind: "self-deadlock", Message: "Each never returns", Seed: 7, Test: seq, Iters: 1, Seq: true,
			Wait: 1500 * time.Millisecond},
			"time.After(1500 * time.Millisecond):\nt.Fatal(\"self-deadlock: a.Each did not return within 1.5s\")", nil},
		{&Violation{Kind: KindNotLinearizable, Message: "not linearizable", Seed: 7, Test: test, Iters: 3, Schedule: schedule, Replay: replay},
			"time.After(5 * time.Second):\nt.Fatal(\"deadlock: a.Set and b.Fill did not return within 5s\")", wants},
		{&Violation{Kind: KindNotLinearizable, Message: "not linearizable", Seed: 7, Test: observed, Iters: 3,
			Lin: &harness.Lin{Observers: []harness.Call{{Recv: 1, Fn: "Len"}}}},
			"time.After(5 * time.Second):\nt.Fatal(\"deadlock: a.Len and b.Err did not return within 5s\")",
			[]string{"call0 := func() { r0 = showAll(a.Len()) }", "call1 := func() { r1 = showAll(b.Err()) }",
				"out = append(out, showAll(b.Len())...)"}},
	} {
		v := tc.v
		src, err := Source(s, v)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.ReplaceAll(string(src), "\t", ""), tc.wait) {
			t.Errorf("reproducer lacks its wait %q:\n%s", tc.wait, src)
		}
		for _, want := range tc.wants {
			if !strings.Contains(string(src), want) {
				t.Errorf("reproducer lacks %q:\n%s", want, src)
			}
		}
		if err := os.WriteFile(filepath.Join(mod, FileName(s, v)), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = mod
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test on the reproducers: %v\n%s", err, out)
	}
}

// TestSourcesBuildTogether checks that the reproducers of one run build
// in one package: the helper types each declares (a reader and a writer
// with a Close here) are named after its test.
func TestSourcesBuildTogether(t *testing.T) {
	dir, s := storeSubject(t, "Copy", "Tee")
	rw := []harness.Value{{K: harness.KReader, Lit: "ab"}, {K: harness.KWriter}}
	srcs := map[string][]byte{}
	for _, pair := range [][2]string{{"Copy", "Tee"}, {"Copy", "Copy"}} {
		v := &Violation{Kind: "race", Message: "data race", Seed: 1, Iters: 1, Test: harness.Test{Type: "Store",
			Objects: []harness.Call{{Fn: "NewStoreValue"}},
			Suffix:  []harness.Call{{Fn: pair[0], Args: rw}, {Fn: pair[1], Args: rw}}}}
		src, err := Source(s, v)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "type depconStore"+pair[0]+pair[1]+"ReadCloser struct") {
			t.Errorf("reproducer of %s ∥ %s: its reader's type is not named after its test:\n%s", pair[0], pair[1], src)
		}
		srcs[FileName(s, v)] = src
	}
	if out, err := runReproducers(t, dir, srcs, "^$"); err != nil {
		t.Errorf("go test on two reproducers in one package: %v\n%s", err, out)
	}
}

// TestQuitChannels checks that the signal channels of the concurrent
// calls (harness.ChanLeave) are closed when either call returns: two
// Watch calls, which return once a channel they are given is closed,
// return, and the reproducer passes.
func TestQuitChannels(t *testing.T) {
	dir, s := storeSubject(t, "Watch")
	quit := []harness.Value{{K: harness.KChan, Lit: harness.ChanLeave}, {K: harness.KChan, Lit: harness.ChanLeave}}
	v := &Violation{Kind: "race", Message: "data race", Seed: 1, Iters: 2, Test: harness.Test{Type: "Store",
		Objects: []harness.Call{{Fn: "NewStoreValue"}},
		Suffix:  []harness.Call{{Fn: "Watch", Args: quit}, {Fn: "Watch", Args: quit}}}}
	src, err := Source(s, v)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "(<-chan struct{})(quit") || !strings.Contains(string(src), "close(quit") {
		t.Errorf("reproducer lacks its quit channels:\n%s", src)
	}
	if out, err := runReproducers(t, dir, map[string][]byte{FileName(s, v): src}, "^"+TestName(s, v)+"$"); err != nil {
		t.Errorf("go test: %v\n%s\n%s", err, out, src)
	}
}

// TestSetupFailure checks that a reproducer failing in its set-up,
// before the calls it reproduces (a constructor that returns an error
// this time), says so (SetupFailed): such a failure confirms nothing.
func TestSetupFailure(t *testing.T) {
	dir, s := storeSubject(t, "Len", "Put")
	bad := &harness.Call{Fn: "DefaultOptions", Args: []harness.Value{lit("-1")}}
	v := &Violation{Kind: "race", Message: "data race", Seed: 1, Iters: 2, Test: harness.Test{Type: "Store",
		Objects: []harness.Call{{Fn: "NewStore", Args: []harness.Value{{K: harness.KCall, Call: bad}, lit("0")}}},
		Suffix:  []harness.Call{{Fn: "Len"}, {Fn: "Put", Args: []harness.Value{lit("k"), lit("1")}}}}}
	src, err := Source(s, v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := runReproducers(t, dir, map[string][]byte{FileName(s, v): src}, "^"+TestName(s, v)+"$")
	if err == nil || !strings.Contains(string(out), SetupFailed) {
		t.Errorf("go test: %v, want a failure that says %q:\n%s\n%s", err, SetupFailed, out, src)
	}
}
