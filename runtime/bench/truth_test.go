package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
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

func TestCheckPlans(t *testing.T) {
	subjects := []*Subject{
		{Name: "a", Type: "A", Bug: "lost-update", Kinds: []string{"race"}, Pair: []string{"M", "N"}, Objects: 1},
		{Name: "b", Type: "B", Bug: "none", Objects: 1},
	}
	plan := func(typ string, methods ...string) *deps.Plan {
		tp := &deps.TypePlan{Name: typ}
		for _, m := range methods {
			tp.Methods = append(tp.Methods, deps.Method{Name: m})
		}
		return &deps.Plan{Types: []*deps.TypePlan{tp}}
	}
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

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
