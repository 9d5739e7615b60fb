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
	"github.com/depcon/depcon/runtime/testgen"
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
	// repetition needed more than 10,000 runs on average to expose it
	// (its directory's repeat_test.go measures that; the corpus README
	// records the figures).
	Hard bool `json:"hard,omitempty"`
	// Equivalent lists other pairs (each sorted) whose violation of an
	// allowed kind is the same defect seen from another method.
	Equivalent [][]string `json:"equivalent,omitempty"`
	// Also judges violations other than the bug's that depcon test
	// reported on the subject: a real one is not a false alarm. A
	// violation of another pair or kind that no judgement covers is one.
	Also []Judgement `json:"also,omitempty"`
}

// A Judgement is the verdict on a violation of a buggy subject other
// than its bug: the pair (sorted) and kind it was reported with, whether
// it is a real thread-safety violation, and why.
type Judgement struct {
	Pair []string `json:"pair"`
	Kind string   `json:"kind"`
	Real bool     `json:"real"`
	Note string   `json:"note"`
}

// Control reports whether s is a control: a correctly synchronised type
// on which any finding is a false alarm.
func (s *Subject) Control() bool { return s.Bug == "none" }

// Allowed reports whether a violation of kind k is a hit on s's bug.
func (s *Subject) Allowed(k string) bool { return slices.Contains(s.Kinds, k) }

// Hit reports whether a violation of kind k on the method pair (m1, m2),
// in either order, is s's bug: a kind s allows, on the truth's pair or
// on one of its equivalent pairs. Nothing is a hit on a control.
func (s *Subject) Hit(k, m1, m2 string) bool {
	if s.Control() || !s.Allowed(k) {
		return false
	}
	p := sortedPair(m1, m2)
	return slices.Equal(s.Pair, p) || slices.ContainsFunc(s.Equivalent, func(q []string) bool { return slices.Equal(q, p) })
}

// Judged returns the judgement of a violation of kind k on (m1, m2), in
// either order, nil when truth.json has none (or s is a control).
func (s *Subject) Judged(k, m1, m2 string) *Judgement {
	if s.Control() {
		return nil
	}
	p := sortedPair(m1, m2)
	for i := range s.Also {
		if j := &s.Also[i]; j.Kind == k && slices.Equal(j.Pair, p) {
			return j
		}
	}
	return nil
}

// Find returns the violations depcon test (driver.Config.Find) looks for
// in s: deadlocks when every kind s allows is a deadlock or a
// self-deadlock, exceptions otherwise, as DepCon+ runs each subject for
// the kind of its bug; a control is tested for both (testgen.FindAll), so
// that a false alarm of either shows.
func (s *Subject) Find() string {
	switch {
	case s.Control():
		return testgen.FindAll
	case s.deadlock():
		return testgen.FindDeadlocks
	}
	return testgen.FindExceptions
}

// deadlock reports whether every kind s allows is a deadlock or a
// self-deadlock (false for a control).
func (s *Subject) deadlock() bool {
	return len(s.Kinds) > 0 && !slices.ContainsFunc(s.Kinds, func(k string) bool { return k != "deadlock" && k != "self-deadlock" })
}

func sortedPair(m1, m2 string) []string {
	if m1 > m2 {
		m1, m2 = m2, m1
	}
	return []string{m1, m2}
}

// Kinds of violations truth.json may list, those of depcon test.
var validKinds = []string{"race", "panic", "deadlock", "fatal", "self-deadlock", "not-linearizable"}

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
	case s.Control() && (len(s.Kinds) > 0 || len(s.Pair) > 0 || len(s.Equivalent) > 0 || len(s.Also) > 0 || s.Hard):
		return errors.New("a control (bug none) lists no kinds, pair, equivalent pairs or judgements and is not hard")
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
	for i, j := range s.Also {
		switch {
		case len(j.Pair) != 2 || j.Pair[0] > j.Pair[1]:
			return fmt.Errorf("also[%d]: pair %q: want two method names, sorted", i, j.Pair)
		case !slices.Contains(validKinds, j.Kind):
			return fmt.Errorf("also[%d]: kind %q: want one of %s", i, j.Kind, strings.Join(validKinds, ", "))
		case s.Hit(j.Kind, j.Pair[0], j.Pair[1]):
			return fmt.Errorf("also[%d]: %s %s∥%s is the bug itself", i, j.Kind, j.Pair[0], j.Pair[1])
		case slices.ContainsFunc(s.Also[:i], func(k Judgement) bool { return k.Kind == j.Kind && slices.Equal(k.Pair, j.Pair) }):
			return fmt.Errorf("also[%d]: %s %s∥%s judged twice", i, j.Kind, j.Pair[0], j.Pair[1])
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

// MinControls is the number of controls with dependent pairs a corpus
// needs: a control without any is not tested with the dependent pairs, so it
// proves nothing about depcon's false alarms.
const MinControls = 7

// CheckPlans checks the subjects against the plans of their packages
// (keyed by package name): each type exists, the methods of each
// failing, equivalent or judged pair are among the type's methods, and
// at least MinControls controls have dependent pairs (the error then
// lists those that have none). Whether the failing pair is dependent is
// not checked here: missing it is a finding about the static analysis,
// measured, not an error in the corpus.
func CheckPlans(subjects []*Subject, plans map[string]*deps.Plan) error {
	return checkPlans(subjects, plans, MinControls)
}

// checkPlans is CheckPlans with minControls controls with dependent pairs
// required (0 for none: a selection of the corpus).
func checkPlans(subjects []*Subject, plans map[string]*deps.Plan, minControls int) error {
	var errs []error
	var with, without []string
	for _, s := range subjects {
		tp := typePlan(plans, s)
		if tp == nil {
			errs = append(errs, fmt.Errorf("%s: no type %s in the plan", s.Name, s.Type))
			continue
		}
		if s.Control() {
			if tp.Dependent() > 0 {
				with = append(with, s.Name)
			} else {
				without = append(without, s.Name)
			}
		}
		methods := slices.Clone(s.Pair)
		for _, p := range s.Equivalent {
			methods = append(methods, p...)
		}
		for _, j := range s.Also {
			methods = append(methods, j.Pair...)
		}
		slices.Sort(methods)
		for _, m := range slices.Compact(methods) {
			if !slices.ContainsFunc(tp.Methods, func(pm deps.Method) bool { return pm.Name == m }) {
				errs = append(errs, fmt.Errorf("%s: %s is not a method of %s", s.Name, m, s.Type))
			}
		}
	}
	if len(with) < minControls {
		errs = append(errs, fmt.Errorf("%d controls have dependent pairs (%s), want at least %d; without any: %s",
			len(with), strings.Join(with, ", "), minControls, strings.Join(without, ", ")))
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
