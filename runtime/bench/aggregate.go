package bench

import (
	"slices"
	"time"

	"github.com/depcon/depcon/runtime/driver"
	"github.com/depcon/depcon/runtime/testgen"
)

// Schedulers of depcon bench: those of depcon test (driver.Config.Sched).
const (
	SchedTargeted = driver.SchedTargeted
	SchedPCT      = driver.SchedPCT
	SchedStress   = driver.SchedStress
	SchedAll      = driver.SchedAll
)

// Groups of subjects the summary aggregates over.
const (
	GroupAll       = "all"       // every buggy subject
	GroupException = "exception" // those that depcon test looks for exceptions in
	GroupDeadlock  = "deadlock"  // those that depcon test looks for deadlocks in
	GroupHard      = "hard"      // those marked hard
	GroupOrdinary  = "ordinary"  // the others
)

// A Report is the result of depcon bench; its JSON form is the output of
// depcon bench -json. Fields tagged "-" are shown in the text form only.
type Report struct {
	Subjects []*SubjectReport `json:"subjects"`
	Summary  Summary          `json:"summary"`

	Scheds []string      `json:"-"`
	Pairs  []string      `json:"-"` // the pair selections (testgen.PairsDependent, PairsAll, PairsRandom)
	Seeds  int           `json:"-"`
	Budget time.Duration `json:"-"`
}

// A SubjectReport sums up the runs of one subject.
type SubjectReport struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Kind    string `json:"kind"` // the truth's bug label, "none" for a control
	Hard    bool   `json:"hard"`
	Find    string `json:"find"` // the violations depcon test looked for (Subject.Find)
	Objects int    `json:"objects"`
	Methods int    `json:"methods"`
	// The plan: |M|, |M_pc|, |M_d| and |M_pc ∪ M_d|.
	PairsTotal     int `json:"pairs_total"`
	PairsPC        int `json:"pairs_pc"`
	PairsD         int `json:"pairs_d"`
	PairsDependent int `json:"pairs_dependent"`
	// The cost of the static phase and of the child's build, in seconds;
	// Cost is their sum, added to the FDT in FDT_total.
	Load     float64 `json:"load_s"`
	Analysis float64 `json:"analysis_s"`
	Build    float64 `json:"build_s"`
	Cost     float64 `json:"cost_s"`
	// Runs holds the stats by scheduler and pair selection.
	Runs        map[string]map[string]*RunStats `json:"runs"`
	FalseAlarms int                             `json:"false_alarms"` // over all runs

	Control   bool    `json:"-"`
	Reduction float64 `json:"-"` // of M_pc ∪ M_d against M, in percent
	// PairKept reports whether the truth's failing pair is dependent.
	PairKept bool `json:"-"`
}

// stats returns the stats of s in one dimension, nil when it did not run.
func (s *SubjectReport) stats(sched, sel string) *RunStats { return s.Runs[sched][sel] }

// RunStats sums up the runs of one subject with one pair selection and one
// scheduler.
type RunStats struct {
	SuccessRate float64 `json:"success_rate"` // fraction of the seeds that found the bug
	// FDT, FDTTotal and Tests are means over the successful runs, nil if
	// none: FDT from the start of the type's testing, FDTTotal adding
	// the subject's Cost.
	FDT      *float64 `json:"fdt_s"`
	FDTTotal *float64 `json:"fdt_total_s"`
	Tests    *float64 `json:"tests"`
	// FDTBudget, FDTTotalBudget and TestsBudget are DepCon's means over
	// all the runs: a failed run counts the budget as its FDT and the
	// tests it ran.
	FDTBudget      float64 `json:"fdt_b_s"`
	FDTTotalBudget float64 `json:"fdt_total_b_s"`
	TestsBudget    float64 `json:"tests_b"`
	// Ratios of this baseline selection over the dependent pairs with the same
	// scheduler (nil for the dependent pairs, or where undefined): the FDT
	// speedup FDT_B(baseline)/FDT_B(dependent), the same with the costs
	// counted, and the #GT reduction.
	FDTSpeedup      *float64 `json:"fdt_speedup"`
	FDTTotalSpeedup *float64 `json:"fdt_total_speedup"`
	TestsReduction  *float64 `json:"tests_reduction"`
	// FalseAlarms counts the false alarms over the runs; Others lists
	// the violations other than the bug, once each with their count.
	FalseAlarms int          `json:"false_alarms"`
	Others      []OtherCount `json:"others"`
	// Ended is the mean time at which the runs' testing ended, in
	// seconds, and Saturated how many ended by saturation: on a control,
	// what proving nothing costs.
	Ended     float64 `json:"ended_s"`
	Saturated int     `json:"saturated"`

	Notes []string  `json:"-"` // distinct notes of the runs
	fdts  []float64 // FDT of each successful run
}

// An OtherCount is a violation other than the bug and the number of runs
// that reported it.
type OtherCount struct {
	Other
	Count int `json:"count"`
}

// A Summary aggregates the subject reports.
type Summary struct {
	// ReductionMean is the arithmetic mean of the reductions of the
	// buggy subjects' plans, in percent.
	ReductionMean *float64 `json:"reduction_mean"`
	// Controls is the number of controls, ControlsWithDependentPairs of
	// those with dependent pairs.
	Controls                   int `json:"controls"`
	ControlsWithDependentPairs int `json:"controls_with_dependent_pairs"`
	// Scheds holds the summaries by scheduler and pair selection.
	Scheds map[string]map[string]*RunSummary `json:"scheds"`
}

// A RunSummary aggregates the buggy subjects with one pair selection and one
// scheduler, and counts the false alarms.
type RunSummary struct {
	// SuccessRateMean is the arithmetic mean of the success rates.
	SuccessRateMean *float64 `json:"success_rate_mean"`
	// Hard and Ordinary sum up the hard subjects and the others.
	Hard     *GroupStats `json:"hard"`
	Ordinary *GroupStats `json:"ordinary"`
	// SlowdownVsStress aggregates, over the ordinary subjects, the ratio
	// FDT_B(this scheduler) / FDT_B(stress) with the same pairs; nil when
	// stress did not run.
	SlowdownVsStress *Agg `json:"slowdown_vs_stress"`
	// The ratios of the baseline over the dependent pairs, aggregated by
	// group (all, exception, deadlock); nil for the dependent pairs.
	FDTSpeedup      map[string]*Agg `json:"fdt_speedup"`
	FDTTotalSpeedup map[string]*Agg `json:"fdt_total_speedup"`
	TestsReduction  map[string]*Agg `json:"tests_reduction"`
	// False alarms over the runs on the controls and on the buggy
	// subjects.
	FalseAlarmsControls int `json:"false_alarms_controls"`
	FalseAlarmsBuggy    int `json:"false_alarms_buggy"`
}

// GroupStats sums up a group of buggy subjects with one pair selection and one
// scheduler.
type GroupStats struct {
	N           int      `json:"n"`            // subjects
	SuccessRate *float64 `json:"success_rate"` // arithmetic mean of theirs
	// FDTMean and FDTMedian are taken over all the successful runs of
	// the group's subjects; FDTBudgetMean and FDTBudgetMedian over the
	// subjects' FDT_B.
	FDTMean         *float64 `json:"fdt_mean_s"`
	FDTMedian       *float64 `json:"fdt_median_s"`
	FDTBudgetMean   *float64 `json:"fdt_b_mean_s"`
	FDTBudgetMedian *float64 `json:"fdt_b_median_s"`
}

// aggregate builds the report of the subjects from their static phase and
// their runs.
func aggregate(subjects []*Subject, static map[string]*Static, runs Runs, scheds, sels []string, seeds int, budget time.Duration) *Report {
	rep := &Report{Subjects: []*SubjectReport{}, Scheds: scheds, Pairs: sels, Seeds: seeds, Budget: budget}
	for _, s := range subjects {
		rep.Subjects = append(rep.Subjects, subjectReport(s, static[s.Name], runs, scheds, sels, budget))
	}
	rep.Summary = summarize(rep.Subjects, scheds, sels)
	return rep
}

// subjectReport sums up the runs of s by scheduler and pair selection.
func subjectReport(s *Subject, st *Static, runs Runs, scheds, sels []string, budget time.Duration) *SubjectReport {
	sr := &SubjectReport{Name: s.Name, Type: s.Type, Kind: s.Bug, Hard: s.Hard, Find: s.Find(), Objects: s.Objects,
		Control: s.Control(), Runs: make(map[string]map[string]*RunStats)}
	if st != nil {
		sr.Load, sr.Analysis, sr.Build = st.Load.Seconds(), st.Analysis.Seconds(), st.Build.Seconds()
		sr.Cost = sr.Load + sr.Analysis + sr.Build
		if tp := st.Plan; tp != nil {
			sr.Methods, sr.PairsTotal, sr.PairsPC, sr.PairsD = len(tp.Methods), tp.PairsTotal, tp.PairsPC, tp.PairsD
			sr.PairsDependent, sr.Reduction = tp.Dependent(), tp.Reduction()
			sr.PairKept = !sr.Control && tp.Pair(s.Pair[0], s.Pair[1]) != nil
		}
	}
	for _, sched := range scheds {
		sr.Runs[sched] = make(map[string]*RunStats)
		for _, m := range sels {
			ms := runStats(runs.get(s.Name, runKey{sched, m}), budget, sr.Cost)
			sr.Runs[sched][m] = ms
			sr.FalseAlarms += ms.FalseAlarms
		}
		dep := sr.Runs[sched][testgen.PairsDependent]
		for _, m := range sels {
			if m == testgen.PairsDependent || dep == nil || sr.Control {
				continue
			}
			ms := sr.Runs[sched][m]
			ms.FDTSpeedup = ratio(ms.FDTBudget, dep.FDTBudget)
			ms.FDTTotalSpeedup = ratio(ms.FDTTotalBudget, dep.FDTTotalBudget)
			ms.TestsReduction = ratio(ms.TestsBudget, dep.TestsBudget)
		}
	}
	return sr
}

// runStats sums up the runs of one dimension; cost is the subject's
// static phase and build, in seconds.
func runStats(runs []Run, budget time.Duration, cost float64) *RunStats {
	ms := &RunStats{Others: []OtherCount{}}
	if len(runs) == 0 {
		return ms
	}
	var tests, fdtB, testsB float64
	for _, r := range runs {
		for _, o := range r.Others {
			if i := slices.IndexFunc(ms.Others, func(c OtherCount) bool { return c.Other == o }); i >= 0 {
				ms.Others[i].Count++
			} else {
				ms.Others = append(ms.Others, OtherCount{o, 1})
			}
		}
		ms.FalseAlarms += r.FalseAlarms()
		ms.Ended += r.Elapsed / float64(len(runs))
		if r.Saturated {
			ms.Saturated++
		}
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
		ms.fdts = append(ms.fdts, r.FDT)
		tests += float64(r.Tests)
		fdtB += r.FDT
	}
	slices.SortStableFunc(ms.Others, func(a, b OtherCount) int { return compareOthers(a.Other, b.Other) })
	n := float64(len(runs))
	found := len(ms.fdts)
	ms.SuccessRate = float64(found) / n
	ms.FDTBudget, ms.TestsBudget = fdtB/n, testsB/n
	ms.FDTTotalBudget = cost + ms.FDTBudget
	if found > 0 {
		ms.FDT, ms.Tests = arithMean(ms.fdts), ptr(tests/float64(found))
		ms.FDTTotal = ptr(cost + *ms.FDT)
	}
	return ms
}

// summarize aggregates the subjects by scheduler and pair selection.
func summarize(subjects []*SubjectReport, scheds, sels []string) Summary {
	buggy := group(subjects, GroupAll)
	sum := Summary{Scheds: make(map[string]map[string]*RunSummary)}
	sum.ReductionMean = arithMean(values(buggy, func(s *SubjectReport) *float64 { return ptr(s.Reduction) }))
	for _, s := range subjects {
		if s.Control {
			sum.Controls++
			if s.PairsDependent > 0 {
				sum.ControlsWithDependentPairs++
			}
		}
	}
	for _, sched := range scheds {
		sum.Scheds[sched] = make(map[string]*RunSummary)
		for _, m := range sels {
			sum.Scheds[sched][m] = runSummary(subjects, sched, m, slices.Contains(scheds, SchedStress))
		}
	}
	return sum
}

// runSummary aggregates the subjects in one dimension; stress reports
// whether the stress scheduler ran, to compare with.
func runSummary(subjects []*SubjectReport, sched, sel string, stress bool) *RunSummary {
	ms := &RunSummary{
		SuccessRateMean: arithMean(values(group(subjects, GroupAll), func(s *SubjectReport) *float64 {
			return ptr(s.stats(sched, sel).SuccessRate)
		})),
		Hard:     groupStats(group(subjects, GroupHard), sched, sel),
		Ordinary: groupStats(group(subjects, GroupOrdinary), sched, sel),
	}
	if stress {
		ms.SlowdownVsStress = aggregateValues(values(group(subjects, GroupOrdinary), func(s *SubjectReport) *float64 {
			return ratio(s.stats(sched, sel).FDTBudget, s.stats(SchedStress, sel).FDTBudget)
		}))
	}
	if sel != testgen.PairsDependent && slices.ContainsFunc(subjects, func(s *SubjectReport) bool { return s.stats(sched, testgen.PairsDependent) != nil }) {
		ms.FDTSpeedup, ms.FDTTotalSpeedup, ms.TestsReduction = map[string]*Agg{}, map[string]*Agg{}, map[string]*Agg{}
		for _, g := range []string{GroupAll, GroupException, GroupDeadlock} {
			ss := group(subjects, g)
			ms.FDTSpeedup[g] = aggregateValues(values(ss, func(s *SubjectReport) *float64 { return s.stats(sched, sel).FDTSpeedup }))
			ms.FDTTotalSpeedup[g] = aggregateValues(values(ss, func(s *SubjectReport) *float64 { return s.stats(sched, sel).FDTTotalSpeedup }))
			ms.TestsReduction[g] = aggregateValues(values(ss, func(s *SubjectReport) *float64 { return s.stats(sched, sel).TestsReduction }))
		}
	}
	for _, s := range subjects {
		if s.Control {
			ms.FalseAlarmsControls += s.stats(sched, sel).FalseAlarms
		} else {
			ms.FalseAlarmsBuggy += s.stats(sched, sel).FalseAlarms
		}
	}
	return ms
}

// groupStats sums up the subjects ss in one dimension.
func groupStats(ss []*SubjectReport, sched, sel string) *GroupStats {
	gs := &GroupStats{N: len(ss)}
	var fdts []float64
	for _, s := range ss {
		fdts = append(fdts, s.stats(sched, sel).fdts...)
	}
	gs.SuccessRate = arithMean(values(ss, func(s *SubjectReport) *float64 { return ptr(s.stats(sched, sel).SuccessRate) }))
	gs.FDTMean, gs.FDTMedian = arithMean(fdts), median(fdts)
	fdtB := values(ss, func(s *SubjectReport) *float64 { return ptr(s.stats(sched, sel).FDTBudget) })
	gs.FDTBudgetMean, gs.FDTBudgetMedian = arithMean(fdtB), median(fdtB)
	return gs
}

// group returns the buggy subjects of group g (GroupAll, GroupException…).
func group(subjects []*SubjectReport, g string) []*SubjectReport {
	var out []*SubjectReport
	for _, s := range subjects {
		if s.Control {
			continue
		}
		var in bool
		switch g {
		case GroupAll:
			in = true
		case GroupException:
			in = s.Find == testgen.FindExceptions
		case GroupDeadlock:
			in = s.Find == testgen.FindDeadlocks
		case GroupHard:
			in = s.Hard
		case GroupOrdinary:
			in = !s.Hard
		}
		if in {
			out = append(out, s)
		}
	}
	return out
}

// values returns the values of f on subjects, leaving out those where it
// is undefined (nil).
func values(subjects []*SubjectReport, f func(*SubjectReport) *float64) []float64 {
	var vs []float64
	for _, s := range subjects {
		if v := f(s); v != nil {
			vs = append(vs, *v)
		}
	}
	return vs
}
