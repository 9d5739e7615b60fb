package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
)

// signatures maps the output of a corpus driver test to the oracle kinds,
// in the order they are looked for.
var signatures = []struct{ kind, text string }{
	{"race", "WARNING: DATA RACE"},
	{"fatal", "fatal error:"},
	{"self-deadlock", "self-deadlock:"},
	{"deadlock", "deadlock:"},
	{"panic", "panic:"},
	{"not-linearizable", "not linearizable:"},
}

// kindsIn returns the kinds whose signature occurs in out. "deadlock:"
// counts only where it is not the end of "self-deadlock:".
func kindsIn(out string) []string {
	var kinds []string
	for _, sig := range signatures {
		text := out
		if sig.kind == "deadlock" {
			text = strings.ReplaceAll(text, "self-deadlock:", "")
		}
		if strings.Contains(text, sig.text) {
			kinds = append(kinds, sig.kind)
		}
	}
	return kinds
}

func TestKindsIn(t *testing.T) {
	for out, want := range map[string][]string{
		"t.go:9: self-deadlock: Add did not return":                   {"self-deadlock"},
		"t.go:9: deadlock: goroutines still blocked":                  {"deadlock"},
		"WARNING: DATA RACE\n...\nfatal error: concurrent map writes": {"race", "fatal"},
		"t.go:9: panic: runtime error: index out of range":            {"panic"},
		"t.go:9: not linearizable: Add ∥ Add gave \"1 1\"":            {"not-linearizable"},
		"ok": nil,
	} {
		if got := kindsIn(out); !slices.Equal(got, want) {
			t.Errorf("kindsIn(%q) = %q, want %q", out, got, want)
		}
	}
}

// TestCorpusBugsAreReal runs the driver tests of every corpus package in one
// go test invocation and checks that each buggy subject fails with a
// signature of a kind its truth allows and that each control passes.
func TestCorpusBugsAreReal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the race detector on the whole corpus")
	}
	subjects, err := LoadTruth(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	root := moduleRoot(t)
	args := []string{"test", "-race", "-tags", "depcondriver", "-count=1", "-json"}
	for _, s := range subjects {
		args = append(args, "./testdata/corpus/"+s.Name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("go test did not finish: %v", ctx.Err())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("go test: %v\n%s", err, stderr.Bytes())
	}
	results := testResults(t, out)
	for _, s := range subjects {
		res, ok := results[s.Name]
		switch {
		case !ok:
			t.Errorf("%s: no result from go test\n%s", s.Name, stderr.Bytes())
		case s.Control() && res.action != "pass":
			t.Errorf("control %s: %s, want pass:\n%s", s.Name, res.action, res.output)
		case !s.Control() && res.action != "fail":
			t.Errorf("%s (%s): %s, want fail:\n%s", s.Name, s.Bug, res.action, res.output)
		case !s.Control() && !slices.ContainsFunc(kindsIn(res.output), s.Allowed):
			t.Errorf("%s: failed with signatures of %q, want one of %q:\n%s", s.Name, kindsIn(res.output), s.Kinds, res.output)
		}
	}
}

// A testResult is the outcome of one package's test.
type testResult struct {
	action string // pass, fail or skip
	output string
}

// testResults reads the events of go test -json and returns each
// package's outcome, by package name.
func testResults(t *testing.T, out []byte) map[string]*testResult {
	results := make(map[string]*testResult)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev struct{ Action, Package, Test, Output string }
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("go test -json: %v: %s", err, sc.Bytes())
		}
		name := path.Base(ev.Package)
		res := results[name]
		if res == nil {
			res = &testResult{}
			results[name] = res
		}
		res.output += ev.Output
		if ev.Test == "" && (ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip") {
			res.action = ev.Action
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return results
}

// TestCorpusPairsKept checks the static phase against the ground truth:
// the plan of each subject has its type and the methods of its failing
// pair, and that pair is dependent (in M_pc ∪ M_d), with two shared
// objects when the bug needs two. A pair left out is a failing pair that
// depcon's pruning would never test.
func TestCorpusPairsKept(t *testing.T) {
	subjects, err := LoadTruth(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := load.Packages(corpusDir, patterns(subjects))
	if err != nil {
		t.Fatal(err)
	}
	byPath, _, err := load.Plans(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	plans := make(map[string]*deps.Plan)
	for p, plan := range byPath {
		plans[path.Base(p)] = plan
	}
	if err := CheckPlans(subjects, plans); err != nil {
		t.Fatal(err)
	}
	for _, s := range subjects {
		if s.Control() {
			continue
		}
		tp := plans[s.Name].Type(s.Type)
		p := tp.Pair(s.Pair[0], s.Pair[1])
		switch {
		case p == nil:
			t.Errorf("%s: the failing pair %s∥%s (%s) is not dependent; plan:\n%s", s.Name, s.Pair[0], s.Pair[1], s.Bug, planText(tp))
		case s.Objects == 2 && p.Objects() != 2:
			t.Errorf("%s: the failing pair %s∥%s needs two objects, the plan tests it on one; plan:\n%s", s.Name, s.Pair[0], s.Pair[1], planText(tp))
		}
	}
}

// planText renders a type plan the way depcon pairs does, for messages.
func planText(tp *deps.TypePlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  methods:")
	for _, m := range tp.Methods {
		fmt.Fprintf(&b, " %s%v", m.Name, m.Locks)
	}
	fmt.Fprintf(&b, "\n  |M| = %d, |M_pc| = %d, |M_d| = %d, |M_pc ∪ M_d| = %d\n", tp.PairsTotal, tp.PairsPC, tp.PairsD, tp.Dependent())
	for _, p := range tp.Pairs {
		fmt.Fprintf(&b, "  %s ~ %s [%s] objects=%d\n", p.M1, p.M2, p.JoinDeps(), p.Objects())
	}
	return b.String()
}

// moduleRoot returns the directory of depcon's go.mod.
func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}
