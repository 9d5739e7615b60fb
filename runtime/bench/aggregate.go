package bench

import (
	"slices"
	"time"

	"github.com/depcon/depcon/runtime/testgen"
)

// Modes of depcon bench: the pair selections of depcon test, run with the
// same harness.
const (
	ModeDependent = testgen.PairsDependent // depcon: the dependent pairs
	ModeAll       = testgen.PairsAll       // baseline: every pair, least covered first (CovCon)
	ModeRandom    = testgen.PairsRandom    // baseline: random pairs
)

// A Report is the result of depcon bench; its JSON form is the output of
// depcon bench -json. Fields tagged "-" are shown in the text form only.
type Report struct {
	Subjects []*SubjectReport `json:"subjects"`
	Summary  Summary          `json:"summary"`

	Modes  []string      `json:"-"`
	Seeds  int           `json:"-"`
	Budget time.Duration `json:"-"`
}

// A SubjectReport sums up the runs of one subject.
type SubjectReport struct {
	Name        string                `json:"name"`
	Type        string                `json:"type"`
	Kind        string                `json:"kind"` // the truth's bug label, "none" for a control
	Objects     int                   `json:"objects"`
	Methods     int                   `json:"methods"`
	PairsTotal  int                   `json:"pairs_total"` // |M|
	PairsPC     int                   `json:"pairs_pc"`    // |M_pc|
	PairsD      int                   `json:"pairs_d"`     // |M_d|
	Modes       map[string]*ModeStats `json:"modes"`
	FalseAlarms int                   `json:"false_alarms"` // over all modes and seeds

	Control   bool    `json:"-"`
	Deadlock  bool    `json:"-"` // every allowed kind is deadlock or self-deadlock
	Dependent int     `json:"-"` // |M_pc ∪ M_d|
	Reduction float64 `json:"-"` // of M_pc ∪ M_d against M, in percent
	// PairKept reports whether the truth's failing pair is dependent.
	PairKept bool          `json:"-"`
	Load     time.Duration `json:"-"` // static phase: loading
	Analysis time.Duration `json:"-"` // static phase: load.Plans
	// FDTSpeedup and TestsReduction are the ratios of depcon over each
	// baseline mode; nil where undefined.
	FDTSpeedup     map[string]*float64 `json:"-"`
	TestsReduction map[string]*float64 `json:"-"`
}

// ModeStats sums up the runs of one subject in one mode.
type ModeStats struct {
	SuccessRate float64  `json:"success_rate"` // fraction of the seeds that found the bug
	FDT         *float64 `json:"fdt_s"`        // mean over the successful runs, nil if none
	Tests       *float64 `json:"tests"`        // mean over the successful runs, nil if none

	// FDTBudget and TestsBudget are DepCon's means over all the runs: a
	// failed run counts the budget as its FDT and the tests it ran.
	FDTBudget   float64  `json:"-"`
	TestsBudget float64  `json:"-"`
	FalseAlarms []string `json:"-"` // of every run
	Notes       []string `json:"-"` // distinct notes of the runs
}

// A Summary averages the subject reports of the buggy subjects.
type Summary struct {
	ReductionMean       *float64 `json:"reduction_mean"` // percent
	SuccessRateMean     *float64 `json:"success_rate_mean"`
	FDTSpeedupVsAll     *float64 `json:"fdt_speedup_vs_all"`
	FDTSpeedupVsRandom  *float64 `json:"fdt_speedup_vs_random"`
	TestsReductionVsAll *float64 `json:"tests_reduction_vs_all"`
}

// aggregate builds the report of the subjects from their static phase and
// their runs by subject name, mode and seed.
func aggregate(subjects []*Subject, static map[string]*Static, runs map[string]map[string][]Run, modes []string, seeds int, budget time.Duration) *Report {
	rep := &Report{Subjects: []*SubjectReport{}, Modes: modes, Seeds: seeds, Budget: budget}
	for _, s := range subjects {
		rep.Subjects = append(rep.Subjects, subjectReport(s, static[s.Name], runs[s.Name], modes, budget))
	}
	rep.Summary = summarize(rep.Subjects)
	return rep
}

// subjectReport sums up the runs of s by mode.
func subjectReport(s *Subject, st *Static, runs map[string][]Run, modes []string, budget time.Duration) *SubjectReport {
	sr := &SubjectReport{Name: s.Name, Type: s.Type, Kind: s.Bug, Objects: s.Objects, Control: s.Control(),
		Modes: make(map[string]*ModeStats), FDTSpeedup: make(map[string]*float64), TestsReduction: make(map[string]*float64)}
	sr.Deadlock = !sr.Control && !slices.ContainsFunc(s.Kinds, func(k string) bool { return k != "deadlock" && k != "self-deadlock" })
	if st != nil && st.Plan != nil {
		tp := st.Plan
		sr.Methods, sr.PairsTotal, sr.PairsPC, sr.PairsD = len(tp.Methods), tp.PairsTotal, tp.PairsPC, tp.PairsD
		sr.Dependent, sr.Reduction = tp.Dependent(), tp.Reduction()
		sr.PairKept = !sr.Control && tp.Pair(s.Pair[0], s.Pair[1]) != nil
		sr.Load, sr.Analysis = st.Load, st.Analysis
	}
	for _, m := range modes {
		ms := modeStats(runs[m], budget)
		sr.Modes[m] = ms
		sr.FalseAlarms += len(ms.FalseAlarms)
	}
	dep := sr.Modes[ModeDependent]
	for _, m := range modes {
		if m == ModeDependent || dep == nil || sr.Control {
			continue
		}
		sr.FDTSpeedup[m] = ratio(sr.Modes[m].FDTBudget, dep.FDTBudget)
		sr.TestsReduction[m] = ratio(sr.Modes[m].TestsBudget, dep.TestsBudget)
	}
	return sr
}

// modeStats sums up the runs of one mode.
func modeStats(runs []Run, budget time.Duration) *ModeStats {
	ms := &ModeStats{}
	if len(runs) == 0 {
		return ms
	}
	var found int
	var fdt, tests, fdtB, testsB float64
	for _, r := range runs {
		ms.FalseAlarms = append(ms.FalseAlarms, r.FalseAlarms...)
		for _, n := range r.Notes {
			if !slices.Contains(ms.Notes, n) {
				ms.Notes = append(ms.Notes, n)
			}
		}
		testsB += float64(r.Tests)
		if !r.Found {
			fdtB += budget.Seconds()
			continue
		}
		found++
		fdt += r.FDT
		tests += float64(r.Tests)
		fdtB += r.FDT
	}
	n := float64(len(runs))
	ms.SuccessRate = float64(found) / n
	ms.FDTBudget, ms.TestsBudget = fdtB/n, testsB/n
	if found > 0 {
		ms.FDT, ms.Tests = ptr(fdt/float64(found)), ptr(tests/float64(found))
	}
	return ms
}

// summarize averages the buggy subjects among subjects.
func summarize(subjects []*SubjectReport) Summary {
	return Summary{
		ReductionMean:       mean(subjects, func(s *SubjectReport) *float64 { return ptr(s.Reduction) }),
		SuccessRateMean:     mean(subjects, successRate(ModeDependent)),
		FDTSpeedupVsAll:     mean(subjects, func(s *SubjectReport) *float64 { return s.FDTSpeedup[ModeAll] }),
		FDTSpeedupVsRandom:  mean(subjects, func(s *SubjectReport) *float64 { return s.FDTSpeedup[ModeRandom] }),
		TestsReductionVsAll: mean(subjects, func(s *SubjectReport) *float64 { return s.TestsReduction[ModeAll] }),
	}
}

// successRate returns the function giving a subject's success rate in
// mode m, nil when m was not run.
func successRate(m string) func(*SubjectReport) *float64 {
	return func(s *SubjectReport) *float64 {
		if ms := s.Modes[m]; ms != nil {
			return ptr(ms.SuccessRate)
		}
		return nil
	}
}

// mean returns the arithmetic mean of f over the buggy subjects for which
// f is defined (not nil), nil when it is defined for none.
func mean(subjects []*SubjectReport, f func(*SubjectReport) *float64) *float64 {
	var sum float64
	var n int
	for _, s := range subjects {
		if s.Control {
			continue
		}
		if v := f(s); v != nil {
			sum += *v
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return ptr(sum / float64(n))
}

// ratio returns a/b, nil when b is 0.
func ratio(a, b float64) *float64 {
	if b == 0 {
		return nil
	}
	return ptr(a / b)
}

func ptr(v float64) *float64 { return &v }
