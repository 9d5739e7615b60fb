package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
)

// A Subject is one entry of a corpus's truth.json: a package holding one
// type under test, with the defect it contains (or "none" for a control).
type Subject struct {
	Name    string   `json:"name"`    // directory and package name
	Type    string   `json:"type"`    // the type under test
	Bug     string   `json:"bug"`     // pattern label, "none" for a control
	Kinds   []string `json:"kinds"`   // oracle kinds that count as finding the bug
	Pair    []string `json:"pair"`    // the failing pair, sorted; empty for a control
	Objects int      `json:"objects"` // shared objects the bug needs: 1 or 2
	Note    string   `json:"note"`
	// Hard marks a subject whose bug needs a narrow interleaving: plain
	// repetition exposes it in fewer than one run in 10,000 (its
	// directory's repeat_test.go measures that).
	Hard bool `json:"hard,omitempty"`
	// Equivalent lists other pairs (each sorted) whose violation of an
	// allowed kind is the same defect seen from another method.
	Equivalent [][]string `json:"equivalent,omitempty"`
}

// Control reports whether s is a control: a correctly synchronised type
// on which any finding is a false alarm.
func (s *Subject) Control() bool { return s.Bug == "none" }

// Allowed reports whether a violation of kind k is a hit on s's bug.
func (s *Subject) Allowed(k string) bool { return slices.Contains(s.Kinds, k) }

// Kinds of violations truth.json may list, those of depcon test.
var validKinds = []string{"race", "panic", "deadlock", "fatal", "self-deadlock"}

// TruthFile is the name of the ground truth in a corpus directory.
const TruthFile = "truth.json"

// LoadTruth reads dir/truth.json and checks it against the directory: each
// package directory of dir has exactly one entry and each entry names a
// package directory; names are sorted; every entry is well formed (see
// [Subject]). It does not look at the code: see [CheckPlans].
func LoadTruth(dir string) ([]*Subject, error) {
	f, err := os.Open(filepath.Join(dir, TruthFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var subjects []*Subject
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&subjects); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	pkgDirs, err := packageDirs(dir)
	if err != nil {
		return nil, err
	}
	var errs []error
	seen := map[string]bool{}
	for i, s := range subjects {
		if err := s.check(); err != nil {
			errs = append(errs, fmt.Errorf("entry %d (%s): %w", i, s.Name, err))
		}
		if seen[s.Name] {
			errs = append(errs, fmt.Errorf("entry %d: %s listed twice", i, s.Name))
		}
		seen[s.Name] = true
		if i > 0 && subjects[i-1].Name > s.Name {
			errs = append(errs, fmt.Errorf("entry %d: %s is out of order (after %s)", i, s.Name, subjects[i-1].Name))
		}
		if !slices.Contains(pkgDirs, s.Name) {
			errs = append(errs, fmt.Errorf("entry %d: no package directory %s", i, s.Name))
		}
	}
	for _, d := range pkgDirs {
		if !seen[d] {
			errs = append(errs, fmt.Errorf("package directory %s has no entry", d))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, TruthFile), errors.Join(errs...))
	}
	return subjects, nil
}

// check checks the fields of one entry.
func (s *Subject) check() error {
	switch {
	case s.Name == "" || s.Type == "" || s.Bug == "":
		return errors.New("name, type and bug are required")
	case s.Objects != 1 && s.Objects != 2:
		return fmt.Errorf("objects is %d, want 1 or 2", s.Objects)
	case s.Control() && (len(s.Kinds) > 0 || len(s.Pair) > 0):
		return errors.New("a control (bug none) lists no kinds and no pair")
	case s.Control():
		return nil
	case len(s.Kinds) == 0:
		return errors.New("no kinds")
	case len(s.Pair) != 2 || s.Pair[0] > s.Pair[1]:
		return fmt.Errorf("pair %q: want two method names, sorted", s.Pair)
	}
	for _, p := range s.Equivalent {
		if len(p) != 2 || p[0] > p[1] {
			return fmt.Errorf("equivalent pair %q: want two method names, sorted", p)
		}
	}
	for _, k := range s.Kinds {
		if !slices.Contains(validKinds, k) {
			return fmt.Errorf("kind %q: want one of %s", k, strings.Join(validKinds, ", "))
		}
	}
	return nil
}

// packageDirs returns the sorted names of the subdirectories of dir that
// hold non-test Go files.
func packageDirs(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, e.Name(), "*.go"))
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(files, func(f string) bool { return !strings.HasSuffix(f, "_test.go") }) {
			dirs = append(dirs, e.Name())
		}
	}
	return dirs, nil
}

// CheckPlans checks the subjects against the plans of their packages
// (keyed by package name): each type exists and the methods of each
// failing pair are among the type's methods. Whether the pair is
// dependent is not checked here: missing it is a finding about the static
// analysis, measured, not an error in the corpus.
func CheckPlans(subjects []*Subject, plans map[string]*deps.Plan) error {
	var errs []error
	for _, s := range subjects {
		tp := typePlan(plans, s)
		if tp == nil {
			errs = append(errs, fmt.Errorf("%s: no type %s in the plan", s.Name, s.Type))
			continue
		}
		for _, m := range s.Pair {
			if !slices.ContainsFunc(tp.Methods, func(pm deps.Method) bool { return pm.Name == m }) {
				errs = append(errs, fmt.Errorf("%s: %s is not a method of %s", s.Name, m, s.Type))
			}
		}
	}
	return errors.Join(errs...)
}

// typePlan returns the plan of s's type, or nil.
func typePlan(plans map[string]*deps.Plan, s *Subject) *deps.TypePlan {
	if p := plans[s.Name]; p != nil {
		return p.Type(s.Type)
	}
	return nil
}
