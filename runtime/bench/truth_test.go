package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/testgen"
)

const corpusDir = "../../testdata/corpus"

func TestLoadTruthCorpus(t *testing.T) {
	subjects, err := LoadTruth(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	var controls int
	for _, s := range subjects {
		if s.Control() {
			controls++
		}
	}
	if controls == 0 || controls == len(subjects) {
		t.Errorf("%d subjects of which %d controls: want both kinds", len(subjects), controls)
	}
}

func TestLoadTruthErrors(t *testing.T) {
	const (
		a = `{"name": "a", "type": "A", "bug": "lost-update", "kinds": ["race"], "pair": ["M", "N"], "objects": 1, "note": ""}`
		b = `{"name": "b", "type": "B", "bug": "none", "kinds": [], "pair": [], "objects": 1, "note": ""}`
	)
	tests := []struct {
		name, truth, want string // want: a part of the error, "" for none
	}{
		{"ok", "[" + a + "," + b + "]", ""},
		{"missing entry", "[" + a + "]", "package directory b has no entry"},
		{"extra entry", "[" + a + "," + b + "," + strings.ReplaceAll(b, `"b"`, `"c"`) + "]", "no package directory c"},
		{"unsorted", "[" + b + "," + a + "]", "out of order"},
		{"twice", "[" + a + "," + a + "," + b + "]", "listed twice"},
		{"bad kind", "[" + strings.Replace(a, `"race"`, `"livelock"`, 1) + "," + b + "]", `kind "livelock"`},
		{"no kinds", "[" + strings.Replace(a, `"race"`, "", 1) + "," + b + "]", "no kinds"},
		{"unsorted pair", "[" + strings.Replace(a, `["M", "N"]`, `["N", "M"]`, 1) + "," + b + "]", "sorted"},
		{"control with kinds", "[" + a + "," + strings.Replace(b, `"kinds": []`, `"kinds": ["race"]`, 1) + "]", "a control"},
		{"objects", "[" + strings.Replace(a, `"objects": 1`, `"objects": 3`, 1) + "," + b + "]", "objects is 3"},
		{"unknown field", "[" + strings.Replace(a, `"note"`, `"notes"`, 1) + "," + b + "]", "unknown field"},
		{"also ok", "[" + strings.Replace(a, `"note": ""`, `"note": "", "equivalent": [["M", "O"]], "also": [`+
			`{"pair": ["M", "X"], "kind": "race", "real": true, "note": "n"}, {"pair": ["M", "N"], "kind": "panic", "real": false, "note": ""}]`, 1) +
			"," + b + "]", ""},
		{"also unsorted", "[" + strings.Replace(a, `"note": ""`, `"note": "", "also": [{"pair": ["X", "M"], "kind": "race", "real": true, "note": ""}]`, 1) +
			"," + b + "]", "also[0]: pair"},
		{"also bad kind", "[" + strings.Replace(a, `"note": ""`, `"note": "", "also": [{"pair": ["M", "X"], "kind": "oops", "real": true, "note": ""}]`, 1) +
			"," + b + "]", `also[0]: kind "oops"`},
		{"also the bug", "[" + strings.Replace(a, `"note": ""`, `"note": "", "also": [{"pair": ["M", "N"], "kind": "race", "real": true, "note": ""}]`, 1) +
			"," + b + "]", "is the bug itself"},
		{"also twice", "[" + strings.Replace(a, `"note": ""`, `"note": "", "also": [{"pair": ["M", "X"], "kind": "race", "real": true, "note": ""}, `+
			`{"pair": ["M", "X"], "kind": "race", "real": false, "note": ""}]`, 1) + "," + b + "]", "judged twice"},
		{"control with also", "[" + a + "," + strings.Replace(b, `"note": ""`, `"note": "", "also": [{"pair": ["M", "X"], "kind": "race", "real": true, "note": ""}]`, 1) +
			"]", "a control"},
		{"hard control", "[" + a + "," + strings.Replace(b, `"note": ""`, `"note": "", "hard": true`, 1) + "]", "a control"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, pkg := range []string{"a", "b"} {
				writeFile(t, filepath.Join(dir, pkg, pkg+".go"), "package "+pkg+"\n")
			}
			writeFile(t, filepath.Join(dir, "empty", "x_test.go"), "package empty\n") // not a package dir
			writeFile(t, filepath.Join(dir, TruthFile), tt.truth)
			_, err := LoadTruth(dir)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("LoadTruth: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("LoadTruth: error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestHitAndTestMode(t *testing.T) {
	s := &Subject{Name: "a", Type: "A", Bug: "b", Kinds: []string{"race", "deadlock"}, Pair: []string{"M", "N"}, Objects: 1,
		Equivalent: [][]string{{"M", "M"}}}
	for _, tt := range []struct {
		kind, m1, m2 string
		want         bool
	}{
		{"race", "M", "N", true},
		{"race", "N", "M", true},
		{"deadlock", "M", "M", true},
		{"panic", "M", "N", false},
		{"race", "N", "N", false},
	} {
		if got := s.Hit(tt.kind, tt.m1, tt.m2); got != tt.want {
			t.Errorf("Hit(%s, %s, %s) = %v, want %v", tt.kind, tt.m1, tt.m2, got, tt.want)
		}
	}
	for _, tt := range []struct {
		s    *Subject
		want string
	}{
		{s, testgen.FindExceptions}, // one allowed kind is not a deadlock
		{&Subject{Bug: "b", Kinds: []string{"deadlock", "self-deadlock"}}, testgen.FindDeadlocks},
		{&Subject{Bug: "none"}, testgen.FindAll},
	} {
		if got := tt.s.Find(); got != tt.want {
			t.Errorf("Find of %q = %s, want %s", tt.s.Kinds, got, tt.want)
		}
	}
}

func TestCheckPlansControls(t *testing.T) {
	var subjects []*Subject
	plans := map[string]*deps.Plan{}
	for i := range MinControls {
		name := string(rune('a' + i))
		subjects = append(subjects, &Subject{Name: name, Type: "T", Bug: "none", Objects: 1})
		tp := &deps.TypePlan{Name: "T", Methods: []deps.Method{{Name: "M"}}, PairsTotal: 1, PairsPC: 1, Pairs: []deps.Pair{{M1: "M", M2: "M"}}}
		plans[name] = &deps.Plan{Types: []*deps.TypePlan{tp}}
	}
	if err := CheckPlans(subjects, plans); err != nil {
		t.Errorf("CheckPlans with %d controls with dependent pairs: %v", MinControls, err)
	}
	plans["b"].Types[0].Pairs, plans["b"].Types[0].PairsPC = nil, 0
	if err := CheckPlans(subjects, plans); err == nil || !strings.Contains(err.Error(), "without any: b") {
		t.Errorf("CheckPlans with a control without dependent pairs: error %v, want one naming b", err)
	}
	if err := checkPlans(subjects, plans, 0); err != nil {
		t.Errorf("checkPlans of a selection: %v", err)
	}
}

func TestCheckPlans(t *testing.T) {
	subjects := []*Subject{
		{Name: "a", Type: "A", Bug: "lost-update", Kinds: []string{"race"}, Pair: []string{"M", "N"}, Objects: 1},
		{Name: "b", Type: "B", Bug: "none", Objects: 1},
	}
	equiv := []*Subject{{Name: "a", Type: "A", Bug: "lost-update", Kinds: []string{"race"}, Pair: []string{"M", "N"}, Objects: 1,
		Equivalent: [][]string{{"M", "O"}}, Also: []Judgement{{Pair: []string{"M", "P"}, Kind: "race"}}}}
	if err := checkPlans(equiv, map[string]*deps.Plan{"a": plan("A", "M", "N")}, 0); err == nil ||
		!strings.Contains(err.Error(), "O is not a method") || !strings.Contains(err.Error(), "P is not a method") {
		t.Errorf("checkPlans: error %v, want one naming O and P", err)
	}
	CheckPlans := func(subjects []*Subject, plans map[string]*deps.Plan) error { return checkPlans(subjects, plans, 0) }
	if err := CheckPlans(subjects, map[string]*deps.Plan{"a": plan("A", "M", "N"), "b": plan("B")}); err != nil {
		t.Errorf("CheckPlans: %v", err)
	}
	for _, tt := range []struct {
		plans map[string]*deps.Plan
		want  string
	}{
		{map[string]*deps.Plan{"a": plan("A", "M"), "b": plan("B")}, "N is not a method of A"},
		{map[string]*deps.Plan{"a": plan("A", "M", "N")}, "b: no type B"},
		{map[string]*deps.Plan{"a": plan("X", "M", "N"), "b": plan("B")}, "a: no type A"},
	} {
		if err := CheckPlans(subjects, tt.plans); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckPlans: error %v, want one containing %q", err, tt.want)
		}
	}
}

func plan(typ string, methods ...string) *deps.Plan {
	tp := &deps.TypePlan{Name: typ}
	for _, m := range methods {
		tp.Methods = append(tp.Methods, deps.Method{Name: m})
	}
	return &deps.Plan{Types: []*deps.TypePlan{tp}}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
