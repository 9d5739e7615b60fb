package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
)

// fixture returns a report built from constructed runs, with the
// schedulers stress and all, the pair selections dependent and all, two seeds and a
// budget of 10s, of three buggy subjects and two controls:
//
//	a (race, exception mode, cost 1s = 0.1 load + 0.2 analysis + 0.7 build):
//	    stress: dependent finds both (1s/2 tests, 3s/4 tests; the second run
//	            also reports race M∥X, judged real); all finds one (4s/10
//	            tests, then 20 tests without)
//	    all:    dependent 1s/2 twice; all 2s/6 twice
//	h (race, hard, exception mode):
//	    stress: nothing found (5 tests each run) in either mode
//	    all:    dependent finds one (4s/3 tests, then 5 tests); all none
//	b (deadlock, deadlock mode):
//	    stress: dependent 2s/1 test twice; all 8s/8 tests twice, the first
//	            run also reporting race P∥P, not judged
//	    all:    dependent 1s and 3s, 1 test each; all 4s/4 tests twice
//	c (control, 3 dependent pairs): race X∥Y in the first stress/dependent run
//	k (control, no dependent pairs): nothing
func fixture() *Report {
	subjects := []*Subject{
		{Name: "a", Type: "A", Bug: "lost-update", Kinds: []string{"race"}, Pair: []string{"M", "N"}, Objects: 1,
			Also: []Judgement{{Pair: []string{"M", "X"}, Kind: "race", Real: true, Note: "X reads n unlocked"}}},
		{Name: "b", Type: "B", Bug: "lock-order", Kinds: []string{"deadlock"}, Pair: []string{"P", "Q"}, Objects: 1},
		{Name: "c", Type: "C", Bug: "none", Objects: 1},
		{Name: "h", Type: "H", Bug: "check-then-act", Kinds: []string{"race"}, Pair: []string{"P", "Q"}, Objects: 1, Hard: true},
		{Name: "k", Type: "K", Bug: "none", Objects: 1},
	}
	static := map[string]*Static{
		"a": {Plan: &deps.TypePlan{Name: "A", Methods: make([]deps.Method, 4), PairsTotal: 10, PairsPC: 2,
			Pairs: []deps.Pair{{M1: "M", M2: "N"}, {M1: "M", M2: "M"}}},
			Load: 100 * time.Millisecond, Analysis: 200 * time.Millisecond, Build: 700 * time.Millisecond},
		"b": {Plan: &deps.TypePlan{Name: "B", Methods: make([]deps.Method, 3), PairsTotal: 4, PairsD: 1, Pairs: make([]deps.Pair, 1)}},
		"c": {Plan: &deps.TypePlan{Name: "C", Methods: make([]deps.Method, 3), PairsTotal: 6, PairsPC: 3, Pairs: make([]deps.Pair, 3)}},
		"h": {Plan: &deps.TypePlan{Name: "H", Methods: make([]deps.Method, 2), PairsTotal: 3, PairsPC: 3,
			Pairs: []deps.Pair{{M1: "P", M2: "P"}, {M1: "P", M2: "Q"}, {M1: "Q", M2: "Q"}}}},
		"k": {Plan: &deps.TypePlan{Name: "K", Methods: make([]deps.Method, 3), PairsTotal: 6}},
	}
	found := func(fdt float64, tests int, others ...Other) Run {
		return Run{Found: true, FDT: fdt, Tests: tests, Others: others}
	}
	failed := func(tests int, others ...Other) Run { return Run{Tests: tests, Others: others} }
	realMX := Other{Kind: "race", Pair: [2]string{"M", "X"}, Judged: true, Real: true, Note: "X reads n unlocked"}
	runs := Runs{}
	for name, bySched := range map[string]map[string]map[string][]Run{
		"a": {
			SchedStress: {testgen.PairsDependent: {found(1, 2), found(3, 4, realMX)}, testgen.PairsAll: {found(4, 10), failed(20)}},
			SchedAll:    {testgen.PairsDependent: {found(1, 2), found(1, 2)}, testgen.PairsAll: {found(2, 6), found(2, 6)}},
		},
		"h": {
			SchedStress: {testgen.PairsDependent: {failed(5), failed(5)}, testgen.PairsAll: {failed(5), failed(5)}},
			SchedAll:    {testgen.PairsDependent: {found(4, 3), failed(5)}, testgen.PairsAll: {failed(5), failed(5)}},
		},
		"b": {
			SchedStress: {testgen.PairsDependent: {found(2, 1), found(2, 1)},
				testgen.PairsAll: {found(8, 8, Other{Kind: "race", Pair: [2]string{"P", "P"}}), found(8, 8)}},
			SchedAll: {testgen.PairsDependent: {found(1, 1), found(3, 1)}, testgen.PairsAll: {found(4, 4), found(4, 4)}},
		},
		"c": {
			SchedStress: {testgen.PairsDependent: {failed(50, Other{Kind: "race", Pair: [2]string{"X", "Y"}}), failed(60)},
				testgen.PairsAll: {failed(70), failed(70)}},
			SchedAll: {testgen.PairsDependent: {{Tests: 50, Elapsed: 2, Saturated: true}, {Tests: 50, Elapsed: 4}},
				testgen.PairsAll: {failed(70), failed(70)}},
		},
		"k": {
			SchedStress: {testgen.PairsDependent: {{Notes: []string{"no dependent pairs to test"}}, {Notes: []string{"no dependent pairs to test"}}},
				testgen.PairsAll: {failed(70), failed(70)}},
			SchedAll: {testgen.PairsDependent: {{Notes: []string{"no dependent pairs to test"}}, {Notes: []string{"no dependent pairs to test"}}},
				testgen.PairsAll: {failed(70), failed(70)}},
		},
	} {
		for sched, bySel := range bySched {
			for sel, rs := range bySel {
				for _, r := range rs {
					runs.add(name, runKey{sched, sel}, r)
				}
			}
		}
	}
	return aggregate(subjects, static, runs, []string{SchedStress, SchedAll}, []string{testgen.PairsDependent, testgen.PairsAll}, 2, 10*time.Second)
}

// subject returns the report of the subject named name.
func (r *Report) subject(name string) *SubjectReport {
	for _, s := range r.Subjects {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func TestStatsHelpers(t *testing.T) {
	for _, tt := range []struct {
		vs                 []float64
		geo, median, arith *float64
	}{
		{[]float64{2, 8}, ptr(4), ptr(5), ptr(5)},
		{[]float64{1, 2, 4}, ptr(2), ptr(2), ptr(7.0 / 3)},
		{[]float64{4, 1, 3, 2}, ptr(math.Pow(24, 0.25)), ptr(2.5), ptr(2.5)},
		{[]float64{0.5, 2}, ptr(1), ptr(1.25), ptr(1.25)},
		{[]float64{0, 4}, nil, ptr(2), ptr(2)}, // no geometric mean with a zero
		{nil, nil, nil, nil},
	} {
		a := aggregateValues(tt.vs)
		if a.N != len(tt.vs) || !eq(a.GeoMean, tt.geo) || !eq(a.Median, tt.median) || !eq(a.Mean, tt.arith) {
			t.Errorf("aggregateValues(%v) = n %d geomean %s median %s mean %s, want %d %s %s %s", tt.vs, a.N, show(a.GeoMean),
				show(a.Median), show(a.Mean), len(tt.vs), show(tt.geo), show(tt.median), show(tt.arith))
		}
	}
	if !eq(ratio(6, 3), ptr(2)) || ratio(6, 0) != nil || ratio(0, 3) != nil {
		t.Errorf("ratio: %s %s %s, want 2, n/a, n/a", show(ratio(6, 3)), show(ratio(6, 0)), show(ratio(0, 3)))
	}
}

func TestModeStats(t *testing.T) {
	rep := fixture()
	a := rep.subject("a")
	if a.Cost != 1 || a.Load != 0.1 || a.Build != 0.7 {
		t.Errorf("a: cost %v (load %v, build %v), want 1 (0.1, 0.7)", a.Cost, a.Load, a.Build)
	}
	tests := []struct {
		sched, mode               string
		sr                        float64
		fdt, fdtTotal, tests      *float64
		fdtB, fdtTotalB, testsB   float64
		speedup, speedupT, reduct *float64
	}{
		{SchedStress, testgen.PairsDependent, 1, ptr(2), ptr(3), ptr(3), 2, 3, 3, nil, nil, nil},
		// The failed run counts 10s; the ratios are over stress/dependent.
		{SchedStress, testgen.PairsAll, 0.5, ptr(4), ptr(5), ptr(10), 7, 8, 15, ptr(3.5), ptr(8.0 / 3), ptr(5)},
		{SchedAll, testgen.PairsAll, 1, ptr(2), ptr(3), ptr(6), 2, 3, 6, ptr(2), ptr(1.5), ptr(3)},
	}
	for _, tt := range tests {
		ms := a.stats(tt.sched, tt.mode)
		if ms.SuccessRate != tt.sr || !eq(ms.FDT, tt.fdt) || !eq(ms.FDTTotal, tt.fdtTotal) || !eq(ms.Tests, tt.tests) ||
			!near(ms.FDTBudget, tt.fdtB) || !near(ms.FDTTotalBudget, tt.fdtTotalB) || !near(ms.TestsBudget, tt.testsB) ||
			!eq(ms.FDTSpeedup, tt.speedup) || !eq(ms.FDTTotalSpeedup, tt.speedupT) || !eq(ms.TestsReduction, tt.reduct) {
			t.Errorf("a, %s/%s: got SR %v FDT %s FDT+ %s #GT %s FDT_B %v FDT+_B %v #GT_B %v × %s %s %s, want %v %s %s %s %v %v %v × %s %s %s",
				tt.sched, tt.mode, ms.SuccessRate, show(ms.FDT), show(ms.FDTTotal), show(ms.Tests), ms.FDTBudget, ms.FDTTotalBudget,
				ms.TestsBudget, show(ms.FDTSpeedup), show(ms.FDTTotalSpeedup), show(ms.TestsReduction),
				tt.sr, show(tt.fdt), show(tt.fdtTotal), show(tt.tests), tt.fdtB, tt.fdtTotalB, tt.testsB,
				show(tt.speedup), show(tt.speedupT), show(tt.reduct))
		}
	}
	if got := rep.subject("k").stats(SchedStress, testgen.PairsDependent).Notes; !slices.Equal(got, []string{"no dependent pairs to test"}) {
		t.Errorf("k, stress/dependent: notes %q, want the one note once", got)
	}
	if got := rep.subject("c").stats(SchedStress, testgen.PairsAll).FDTSpeedup; got != nil {
		t.Errorf("c (control): FDT× all = %s, want n/a", show(got))
	}
}

// TestFalseAlarms checks that a violation other than the bug is a false
// alarm unless judged real, and that every violation on a control is.
func TestFalseAlarms(t *testing.T) {
	rep := fixture()
	for name, want := range map[string]int{"a": 0, "b": 1, "c": 1, "h": 0, "k": 0} {
		if got := rep.subject(name).FalseAlarms; got != want {
			t.Errorf("%s: %d false alarms, want %d", name, got, want)
		}
	}
	others := rep.subject("a").stats(SchedStress, testgen.PairsDependent).Others
	if len(others) != 1 || others[0].Count != 1 || !others[0].Real || others[0].FalseAlarm() {
		t.Errorf("a, stress/dependent: others %+v, want race M∥X once, judged real", others)
	}
	for _, tt := range []struct {
		sched, mode     string
		controls, buggy int
	}{
		{SchedStress, testgen.PairsDependent, 1, 0},
		{SchedStress, testgen.PairsAll, 0, 1},
		{SchedAll, testgen.PairsDependent, 0, 0},
	} {
		sum := rep.Summary.Scheds[tt.sched][tt.mode]
		if sum.FalseAlarmsControls != tt.controls || sum.FalseAlarmsBuggy != tt.buggy {
			t.Errorf("%s/%s: false alarms %d on controls, %d on buggy subjects; want %d, %d", tt.sched, tt.mode,
				sum.FalseAlarmsControls, sum.FalseAlarmsBuggy, tt.controls, tt.buggy)
		}
	}
	if s := rep.Summary; s.Controls != 2 || s.ControlsWithDependentPairs != 1 {
		t.Errorf("controls %d, with dependent pairs %d; want 2, 1", s.Controls, s.ControlsWithDependentPairs)
	}
}

func TestSummaryRatios(t *testing.T) {
	rep := fixture()
	s := rep.Summary
	stressAll := s.Scheds[SchedStress][testgen.PairsAll]
	checks := []struct {
		what      string
		got, want *Agg
	}{
		// FDT× all, stress: a 3.5, h 10/10 = 1, b 8/2 = 4.
		{"stress FDT× all, all", stressAll.FDTSpeedup[GroupAll], &Agg{3, ptr(math.Cbrt(14)), ptr(3.5), ptr(8.5 / 3)}},
		{"stress FDT× all, exception", stressAll.FDTSpeedup[GroupException], &Agg{2, ptr(math.Sqrt(3.5)), ptr(2.25), ptr(2.25)}},
		{"stress FDT× all, deadlock", stressAll.FDTSpeedup[GroupDeadlock], &Agg{1, ptr(4), ptr(4), ptr(4)}},
		// FDT+× all: a 8/3, h 1, b 4 (no cost).
		{"stress FDT+× all, all", stressAll.FDTTotalSpeedup[GroupAll], &Agg{3, ptr(math.Cbrt(32.0 / 3)), ptr(8.0 / 3), ptr((8.0/3 + 5) / 3)}},
		// #GT× all: a 15/3 = 5, h 5/5 = 1, b 8/1 = 8.
		{"stress #GT× all, all", stressAll.TestsReduction[GroupAll], &Agg{3, ptr(math.Cbrt(40)), ptr(5), ptr(14.0 / 3)}},
		// Slowdown of all against stress, dependent, ordinary subjects:
		// a 1/2, b 2/2; h (hard) is left out.
		{"all ×stress, dependent", s.Scheds[SchedAll][testgen.PairsDependent].SlowdownVsStress, &Agg{2, ptr(math.Sqrt(0.5)), ptr(0.75), ptr(0.75)}},
		{"stress ×stress, dependent", s.Scheds[SchedStress][testgen.PairsDependent].SlowdownVsStress, &Agg{2, ptr(1), ptr(1), ptr(1)}},
	}
	for _, ch := range checks {
		if !eqAgg(ch.got, ch.want) {
			t.Errorf("%s = %s, want %s", ch.what, showAgg(ch.got), showAgg(ch.want))
		}
	}
	if dep := s.Scheds[SchedStress][testgen.PairsDependent]; dep.FDTSpeedup != nil {
		t.Errorf("dependent mode has speedups %v, want none", dep.FDTSpeedup)
	}
	if !eq(s.ReductionMean, ptr((80+75+0)/3.0)) {
		t.Errorf("reduction_mean = %s, want 51.67 (controls excluded)", show(s.ReductionMean))
	}
	if got := s.Scheds[SchedStress][testgen.PairsDependent].SuccessRateMean; !eq(got, ptr(2.0/3)) {
		t.Errorf("stress/dependent success_rate_mean = %s, want 2/3", show(got))
	}
}

// TestSchedulerGroups checks the per-scheduler figures on the hard and the
// ordinary subjects.
func TestSchedulerGroups(t *testing.T) {
	rep := fixture()
	for _, tt := range []struct {
		what      string
		got, want *GroupStats
	}{
		{"stress/dependent hard", rep.Summary.Scheds[SchedStress][testgen.PairsDependent].Hard, &GroupStats{1, ptr(0), nil, nil, ptr(10), ptr(10)}},
		{"all/dependent hard", rep.Summary.Scheds[SchedAll][testgen.PairsDependent].Hard, &GroupStats{1, ptr(0.5), ptr(4), ptr(4), ptr(7), ptr(7)}},
		// FDT over the runs a 1, 1, b 1, 3; FDT_B over a 1, b 2.
		{"all/dependent ordinary", rep.Summary.Scheds[SchedAll][testgen.PairsDependent].Ordinary, &GroupStats{2, ptr(1), ptr(1.5), ptr(1), ptr(1.5), ptr(1.5)}},
		// FDT over the runs a 1, 3, b 2, 2; FDT_B over a 2, b 2.
		{"stress/dependent ordinary", rep.Summary.Scheds[SchedStress][testgen.PairsDependent].Ordinary, &GroupStats{2, ptr(1), ptr(2), ptr(2), ptr(2), ptr(2)}},
	} {
		g, w := tt.got, tt.want
		if g.N != w.N || !eq(g.SuccessRate, w.SuccessRate) || !eq(g.FDTMean, w.FDTMean) || !eq(g.FDTMedian, w.FDTMedian) ||
			!eq(g.FDTBudgetMean, w.FDTBudgetMean) || !eq(g.FDTBudgetMedian, w.FDTBudgetMedian) {
			t.Errorf("%s = n %d SR %s FDT %s/%s FDT_B %s/%s, want n %d SR %s FDT %s/%s FDT_B %s/%s", tt.what,
				g.N, show(g.SuccessRate), show(g.FDTMean), show(g.FDTMedian), show(g.FDTBudgetMean), show(g.FDTBudgetMedian),
				w.N, show(w.SuccessRate), show(w.FDTMean), show(w.FDTMedian), show(w.FDTBudgetMean), show(w.FDTBudgetMedian))
		}
	}
}

func TestSummaryWithoutStressOrBaselines(t *testing.T) {
	rep := fixture()
	sum := summarize(rep.Subjects, []string{SchedAll}, []string{testgen.PairsDependent})
	ms := sum.Scheds[SchedAll][testgen.PairsDependent]
	if ms.SlowdownVsStress != nil || ms.FDTSpeedup != nil || len(sum.Scheds) != 1 {
		t.Errorf("without stress and baselines: slowdown %v, speedups %v, want none", ms.SlowdownVsStress, ms.FDTSpeedup)
	}
	if !eq(ms.SuccessRateMean, ptr(2.5/3)) {
		t.Errorf("success_rate_mean = %s, want 2.5/3", show(ms.SuccessRateMean))
	}
}

// TestRunOf checks that only a violation of an allowed kind on the truth's
// pair or an equivalent one is a hit, whatever order the driver names the
// methods in, and that the others are listed with their judgements.
func TestRunOf(t *testing.T) {
	s := &Subject{Name: "x", Type: "X", Bug: "close-vs-read", Kinds: []string{"race", "panic"}, Pair: []string{"A", "B"}, Objects: 1,
		Equivalent: [][]string{{"B", "C"}},
		Also: []Judgement{
			{Pair: []string{"A", "D"}, Kind: "race", Real: true, Note: "D reads unlocked"},
			{Pair: []string{"A", "E"}, Kind: "race", Real: false, Note: "benign"},
		}}
	viol := func(kind, m1, m2 string, before int, elapsed float64) *report.Violation {
		return &report.Violation{Kind: kind, Pair: [2]string{m1, m2}, TestsBefore: before, Elapsed: elapsed}
	}
	for _, tt := range []struct {
		name string
		vs   []*report.Violation
		want Run
	}{
		{"truth pair, reversed", []*report.Violation{viol("race", "B", "A", 4, 1.5)}, Run{Found: true, FDT: 1.5, Tests: 5}},
		{"equivalent pair", []*report.Violation{viol("panic", "C", "B", 2, 0.5)}, Run{Found: true, FDT: 0.5, Tests: 3}},
		{"allowed kind, other pair", []*report.Violation{viol("race", "A", "C", 4, 1.5)},
			Run{Tests: 40, Others: []Other{{Kind: "race", Pair: [2]string{"A", "C"}}}}},
		{"truth pair, other kind", []*report.Violation{viol("deadlock", "A", "B", 4, 1.5)},
			Run{Tests: 40, Others: []Other{{Kind: "deadlock", Pair: [2]string{"A", "B"}}}}},
		{"judged", []*report.Violation{viol("self-deadlock", "A", "A", 0, 0.2), viol("race", "D", "A", 1, 0.3),
			viol("race", "A", "E", 2, 0.4), viol("race", "A", "B", 6, 2)},
			Run{Found: true, FDT: 2, Tests: 7, Others: []Other{{Kind: "self-deadlock", Pair: [2]string{"A", "A"}},
				{Kind: "race", Pair: [2]string{"A", "D"}, Judged: true, Real: true, Note: "D reads unlocked"},
				{Kind: "race", Pair: [2]string{"A", "E"}, Judged: true, Note: "benign"}}}},
	} {
		got := runOf(s, &report.TypeReport{TestsGenerated: 40, Violations: tt.vs})
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: runOf = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if got := runOf(s, &report.TypeReport{Violations: []*report.Violation{viol("race", "A", "D", 0, 1), viol("race", "A", "E", 0, 1),
		viol("race", "A", "C", 0, 1)}}); got.FalseAlarms() != 2 {
		t.Errorf("FalseAlarms of %+v = %d, want 2 (the unjudged and the one judged not real)", got, got.FalseAlarms())
	}
	ctl := &Subject{Name: "c", Type: "C", Bug: "none", Objects: 1}
	if got := runOf(ctl, &report.TypeReport{Violations: []*report.Violation{viol("race", "A", "B", 0, 1)}}); got.Found || got.FalseAlarms() != 1 {
		t.Errorf("control: runOf = %+v, want a failed run with one false alarm", got)
	}
	unconfirmed := viol("race", "A", "B", 0, 1)
	unconfirmed.Reproduced = report.ReproNo
	if got := runOf(s, &report.TypeReport{Violations: []*report.Violation{unconfirmed}}); got.Found || len(got.Others) != 0 || len(got.Notes) != 1 {
		t.Errorf("unconfirmed: runOf = %+v, want a failed run with a note", got)
	}
	got := runOf(s, &report.TypeReport{TestsGenerated: 7, Skipped: "no method can be called", Notes: []string{"n"}})
	if want := (Run{Tests: 7, Notes: []string{"n", "not tested: no method can be called"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("runOf(skipped) = %+v, want %+v", got, want)
	}
	if got := runOf(s, nil); got.Found || len(got.Notes) != 1 {
		t.Errorf("runOf(nil) = %+v, want a failed run with a note", got)
	}
}

// TestJSONShape checks the keys of depcon bench -json, and that undefined
// values are null.
func TestJSONShape(t *testing.T) {
	data, err := json.Marshal(fixture())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Subjects []map[string]json.RawMessage `json:"subjects"`
		Summary  map[string]json.RawMessage   `json:"summary"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	checkKeys(t, "summary", doc.Summary, summaryKeys...)
	checkKeys(t, "subject", doc.Subjects[0], subjectKeys...)
	var runs map[string]map[string]map[string]json.RawMessage
	if err := json.Unmarshal(doc.Subjects[0]["runs"], &runs); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || len(runs[SchedStress]) != 2 {
		t.Errorf("runs %v, want 2 schedulers of 2 modes", runs)
	}
	checkKeys(t, "stress/dependent", runs[SchedStress][testgen.PairsDependent], modeKeys...)
	if got := string(runs[SchedStress][testgen.PairsDependent]["fdt_speedup"]); got != "null" {
		t.Errorf("fdt_speedup of the dependent mode = %s, want null", got)
	}
	var scheds map[string]map[string]map[string]json.RawMessage
	if err := json.Unmarshal(doc.Summary["scheds"], &scheds); err != nil {
		t.Fatal(err)
	}
	checkKeys(t, "summary of stress/all", scheds[SchedStress][testgen.PairsAll], "success_rate_mean", "hard", "ordinary",
		"slowdown_vs_stress", "fdt_speedup", "fdt_total_speedup", "tests_reduction", "false_alarms_controls", "false_alarms_buggy")
	var hard map[string]json.RawMessage
	if err := json.Unmarshal(scheds[SchedStress][testgen.PairsDependent]["hard"], &hard); err != nil {
		t.Fatal(err)
	}
	checkKeys(t, "hard", hard, "n", "success_rate", "fdt_mean_s", "fdt_median_s", "fdt_b_mean_s", "fdt_b_median_s")
	if got := string(hard["fdt_mean_s"]); got != "null" {
		t.Errorf("fdt_mean_s of a group without success = %s, want null", got)
	}
	var agg map[string]map[string]json.RawMessage
	if err := json.Unmarshal(scheds[SchedStress][testgen.PairsAll]["fdt_speedup"], &agg); err != nil {
		t.Fatal(err)
	}
	checkKeys(t, "fdt_speedup", agg[GroupAll], "n", "geomean", "median", "mean")
	if got := string(doc.Subjects[2]["kind"]); got != `"none"` {
		t.Errorf("kind of a control = %s, want \"none\"", got)
	}
}

var (
	summaryKeys = []string{"reduction_mean", "controls", "controls_with_dependent_pairs", "scheds"}
	subjectKeys = []string{"name", "type", "kind", "hard", "find", "objects", "methods", "pairs_total", "pairs_pc",
		"pairs_d", "pairs_dependent", "load_s", "analysis_s", "build_s", "cost_s", "runs", "false_alarms"}
	modeKeys = []string{"success_rate", "fdt_s", "fdt_total_s", "tests", "fdt_b_s", "fdt_total_b_s", "tests_b",
		"fdt_speedup", "fdt_total_speedup", "tests_reduction", "false_alarms", "others", "ended_s", "saturated"}
)

func TestWriteText(t *testing.T) {
	rep := fixture()
	rep.subject("a").PairKept = false
	var buf bytes.Buffer
	rep.WriteText(&buf)
	out := buf.String()
	for _, want := range []string{
		"k, stress/dependent: no dependent pairs to test",
		"b, stress/all: other violation race P∥P in 1 of 2 runs: false alarm (not judged in truth.json)",
		"a, stress/dependent: other violation race M∥X in 1 of 2 runs: judged real: X reads n unlocked",
		"1 of 2 controls have dependent pairs (the corpus needs at least 7)",
		"warning: no dependent pairs in k:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	rows := [][]string{
		// static: the cost is load + analysis + build.
		{"a", "A", "lost-update", "-", "exception", "1", "4", "10", "2", "0", "2", "80.0%", "NO", "100ms", "200ms", "700ms", "1000ms"},
		{"h", "H", "check-then-act", "yes", "exception", "1", "2", "3", "3", "0", "3", "0.0%", "yes", "0ms", "0ms", "0ms", "0ms"},
		// a with stress: dependent 2/2 2.00s 3.00s 3; all 1/2 4.00s 5.00s 10; ratios.
		{"a", "2/2", "2.00s", "3.00s", "3", "1/2", "4.00s", "5.00s", "10", "3.50×", "2.67×", "5.00×"},
		// controls: dependent pairs, then the false alarms per scheduler and mode.
		{"c", "C", "3", "1", "(race", "X∥Y", "×1)", "0", "0", "0"},
		{"k", "K", "0", "0", "0", "0", "0"},
		// controls' end of testing: c under all/dependent ended at 2 and
		// 4 s, once by saturation.
		{"c", "0.00s", "0/2", "0.00s", "0/2", "3.00s", "1/2", "0.00s", "0/2"},
		// ratios with stress over all buggy subjects: a 3.5, h 1, b 4.
		{"FDT×", "all", "all", "3", "2.41×", "3.50×", "2.83×"},
		// schedulers: all/dependent on the hard subject and the ordinary ones.
		{"all", "dependent", "hard", "1", "50%", "4.00s", "4.00s", "7.00s", "7.00s", "-", "-"},
		{"all", "dependent", "ordinary", "2", "100%", "1.50s", "1.00s", "1.50s", "1.50s", "0.71×", "0.75×"},
		{"stress", "dependent", "1", "0"}, // false alarms on controls, on buggy subjects
	}
	for _, row := range rows {
		if !containsFields(out, row...) {
			t.Errorf("no line with fields %q:\n%s", row, out)
		}
	}
}

// containsFields reports whether a line of out has exactly these fields.
func containsFields(out string, fields ...string) bool {
	for line := range strings.Lines(out) {
		if slices.Equal(strings.Fields(line), fields) {
			return true
		}
	}
	return false
}

func checkKeys(t *testing.T, what string, obj map[string]json.RawMessage, keys ...string) {
	t.Helper()
	var got []string
	for k := range obj {
		got = append(got, k)
	}
	slices.Sort(got)
	keys = slices.Clone(keys)
	slices.Sort(keys)
	if !slices.Equal(got, keys) {
		t.Errorf("%s keys %q, want %q", what, got, keys)
	}
}

func eq(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return near(*a, *b)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func eqAgg(a, b *Agg) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.N == b.N && eq(a.GeoMean, b.GeoMean) && eq(a.Median, b.Median) && eq(a.Mean, b.Mean)
}

func showAgg(a *Agg) string {
	if a == nil {
		return "nil"
	}
	return "n " + show(ptr(float64(a.N))) + " geomean " + show(a.GeoMean) + " median " + show(a.Median) + " mean " + show(a.Mean)
}

func show(v *float64) string { return format(v, "%g") }

func TestWriteTextWithoutControls(t *testing.T) {
	rep := fixture()
	rep.Subjects = slices.DeleteFunc(rep.Subjects, func(s *SubjectReport) bool { return s.Control })
	var buf bytes.Buffer
	rep.WriteText(&buf)
	if strings.Contains(buf.String(), "Controls") {
		t.Errorf("a section on controls without controls:\n%s", buf.String())
	}
}
