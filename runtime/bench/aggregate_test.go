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
	"github.com/depcon/depcon/runtime/driver"
)

// fixture returns a report built from constructed runs of two buggy
// subjects and a control, with a budget of 10s and two seeds:
//
//	a (race):     dependent finds both (1s/2 tests, 3s/4 tests); all finds
//	              one (4s/10 tests, then 20 tests without); random none (5, 7 tests)
//	b (deadlock): dependent has nothing to test (0 tests twice); all finds
//	              both (5s/8 tests) with one false alarm; random none (3, 3)
//	c (control):  one false alarm in dependent mode
func fixture() *Report {
	subjects := []*Subject{
		{Name: "a", Type: "A", Bug: "lost-update", Kinds: []string{"race"}, Pair: []string{"M", "N"}, Objects: 1},
		{Name: "b", Type: "B", Bug: "lock-order", Kinds: []string{"deadlock"}, Pair: []string{"P", "Q"}, Objects: 1},
		{Name: "c", Type: "C", Bug: "none", Objects: 1},
	}
	pairs := func(n int) []deps.Pair { return make([]deps.Pair, n) }
	static := map[string]*Static{
		"a": {Plan: &deps.TypePlan{Name: "A", Methods: make([]deps.Method, 4), PairsTotal: 10, PairsPC: 2,
			Pairs: []deps.Pair{{M1: "M", M2: "N"}, {M1: "M", M2: "M"}}}, Load: 3 * time.Millisecond, Analysis: 7 * time.Millisecond},
		"b": {Plan: &deps.TypePlan{Name: "B", Methods: make([]deps.Method, 3), PairsTotal: 4, PairsD: 1, Pairs: pairs(1)}},
		"c": {Plan: &deps.TypePlan{Name: "C", Methods: make([]deps.Method, 3), PairsTotal: 6}},
	}
	found := func(fdt float64, tests int) Run { return Run{Found: true, FDT: fdt, Tests: tests} }
	failed := func(tests int) Run { return Run{Tests: tests} }
	runs := map[string]map[string][]Run{
		"a": {
			ModeDependent: {found(1, 2), found(3, 4)},
			ModeAll:       {found(4, 10), failed(20)},
			ModeRandom:    {failed(5), failed(7)},
		},
		"b": {
			ModeDependent: {{Notes: []string{"no dependent pairs to test"}}, {Notes: []string{"no dependent pairs to test"}}},
			ModeAll:       {found(5, 8), {Found: true, FDT: 5, Tests: 8, FalseAlarms: []string{"race P∥P"}}},
			ModeRandom:    {failed(3), failed(3)},
		},
		"c": {
			ModeDependent: {{Tests: 50, FalseAlarms: []string{"race X∥Y"}}, failed(60)},
			ModeAll:       {failed(70), failed(70)},
			ModeRandom:    {failed(80), failed(80)},
		},
	}
	return aggregate(subjects, static, runs, []string{ModeDependent, ModeAll, ModeRandom}, 2, 10*time.Second)
}

func TestModeStats(t *testing.T) {
	rep := fixture()
	a := rep.Subjects[0]
	tests := []struct {
		mode                   string
		sr                     float64
		fdt, tests             *float64
		fdtBudget, testsBudget float64
	}{
		{ModeDependent, 1, ptr(2), ptr(3), 2, 3},
		{ModeAll, 0.5, ptr(4), ptr(10), 7, 15}, // the failed run counts 10s
		{ModeRandom, 0, nil, nil, 10, 6},
	}
	for _, tt := range tests {
		ms := a.Modes[tt.mode]
		if ms.SuccessRate != tt.sr || !eq(ms.FDT, tt.fdt) || !eq(ms.Tests, tt.tests) ||
			ms.FDTBudget != tt.fdtBudget || ms.TestsBudget != tt.testsBudget {
			t.Errorf("a, %s: got SR %v FDT %v #GT %v FDT_B %v #GT_B %v, want %v %v %v %v %v", tt.mode,
				ms.SuccessRate, show(ms.FDT), show(ms.Tests), ms.FDTBudget, ms.TestsBudget,
				tt.sr, show(tt.fdt), show(tt.tests), tt.fdtBudget, tt.testsBudget)
		}
	}
	if got := rep.Subjects[1].Modes[ModeDependent].Notes; !slices.Equal(got, []string{"no dependent pairs to test"}) {
		t.Errorf("b, dependent: notes %q, want the one note once", got)
	}
}

func TestRatios(t *testing.T) {
	rep := fixture()
	a, b, c := rep.Subjects[0], rep.Subjects[1], rep.Subjects[2]
	checks := []struct {
		what      string
		got, want *float64
	}{
		{"a FDT× all", a.FDTSpeedup[ModeAll], ptr(3.5)},
		{"a FDT× random", a.FDTSpeedup[ModeRandom], ptr(5)},
		{"a #GT× all", a.TestsReduction[ModeAll], ptr(5)},
		{"a #GT× random", a.TestsReduction[ModeRandom], ptr(2)},
		{"b FDT× all", b.FDTSpeedup[ModeAll], ptr(0.5)},
		{"b FDT× random", b.FDTSpeedup[ModeRandom], ptr(1)},
		{"b #GT× all (no dependent tests)", b.TestsReduction[ModeAll], nil},
		{"c FDT× all (control)", c.FDTSpeedup[ModeAll], nil},
	}
	for _, ch := range checks {
		if !eq(ch.got, ch.want) {
			t.Errorf("%s = %s, want %s", ch.what, show(ch.got), show(ch.want))
		}
	}
}

func TestSummaryAndFalseAlarms(t *testing.T) {
	rep := fixture()
	s := rep.Summary
	checks := []struct {
		what      string
		got, want *float64
	}{
		{"reduction_mean (controls excluded)", s.ReductionMean, ptr(77.5)},
		{"success_rate_mean", s.SuccessRateMean, ptr(0.5)},
		{"fdt_speedup_vs_all", s.FDTSpeedupVsAll, ptr(2)},
		{"fdt_speedup_vs_random", s.FDTSpeedupVsRandom, ptr(3)},
		{"tests_reduction_vs_all (b undefined)", s.TestsReductionVsAll, ptr(5)},
	}
	for _, ch := range checks {
		if !eq(ch.got, ch.want) {
			t.Errorf("%s = %s, want %s", ch.what, show(ch.got), show(ch.want))
		}
	}
	for i, want := range []int{0, 1, 1} {
		if got := rep.Subjects[i].FalseAlarms; got != want {
			t.Errorf("%s: %d false alarms, want %d", rep.Subjects[i].Name, got, want)
		}
	}
}

func TestSummaryWithoutBaselines(t *testing.T) {
	rep := fixture()
	for _, s := range rep.Subjects {
		for m := range s.Modes {
			if m != ModeDependent {
				delete(s.Modes, m)
			}
		}
		clear(s.FDTSpeedup)
		clear(s.TestsReduction)
	}
	s := summarize(rep.Subjects)
	if s.FDTSpeedupVsAll != nil || s.TestsReductionVsAll != nil || s.FDTSpeedupVsRandom != nil {
		t.Errorf("speedups without baselines: %s %s %s, want n/a", show(s.FDTSpeedupVsAll),
			show(s.FDTSpeedupVsRandom), show(s.TestsReductionVsAll))
	}
	if !eq(s.SuccessRateMean, ptr(0.5)) {
		t.Errorf("success_rate_mean = %s, want 0.5", show(s.SuccessRateMean))
	}
}

func TestRunOf(t *testing.T) {
	s := &Subject{Name: "x", Type: "X", Bug: "close-vs-read", Kinds: []string{"race", "panic"}, Pair: []string{"A", "B"}, Objects: 1}
	tr := &driver.TypeReport{TestsGenerated: 40, Violations: []*driver.Violation{
		{Kind: "self-deadlock", Pair: [2]string{"A", "A"}, TestsBefore: 0, Elapsed: 0.2},
		{Kind: "race", Pair: [2]string{"A", "C"}, TestsBefore: 4, Elapsed: 1.5},
	}}
	got := runOf(s, tr)
	want := Run{Found: true, FDT: 1.5, Tests: 5, FalseAlarms: []string{"self-deadlock A∥A"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("runOf = %+v, want %+v", got, want)
	}
	got = runOf(s, &driver.TypeReport{TestsGenerated: 7, Skipped: "no method can be called", Notes: []string{"n"}})
	want = Run{Tests: 7, Notes: []string{"n", "not tested: no method can be called"}}
	if !reflect.DeepEqual(got, want) {
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
	checkKeys(t, "summary", doc.Summary, "reduction_mean", "success_rate_mean", "fdt_speedup_vs_all",
		"fdt_speedup_vs_random", "tests_reduction_vs_all")
	checkKeys(t, "subject", doc.Subjects[0], "name", "type", "kind", "objects", "methods", "pairs_total",
		"pairs_pc", "pairs_d", "modes", "false_alarms")
	var modes map[string]map[string]json.RawMessage
	if err := json.Unmarshal(doc.Subjects[0]["modes"], &modes); err != nil {
		t.Fatal(err)
	}
	if len(modes) != 3 {
		t.Errorf("modes %v, want dependent, all and random", modes)
	}
	for m, stats := range modes {
		checkKeys(t, m, stats, "success_rate", "fdt_s", "tests")
	}
	if got := string(modes[ModeRandom]["fdt_s"]); got != "null" {
		t.Errorf("fdt_s of a mode without success = %s, want null", got)
	}
	if got := string(doc.Subjects[2]["kind"]); got != `"none"` {
		t.Errorf("kind of a control = %s, want \"none\"", got)
	}
}

func TestWriteText(t *testing.T) {
	rep := fixture()
	rep.Subjects[0].PairKept = false
	var buf bytes.Buffer
	rep.WriteText(&buf)
	out := buf.String()
	for _, want := range []string{
		"b, dependent: no dependent pairs to test",
		"b, all: false alarm: 1 (race P∥P)",
		"c        C     1 (race X∥Y)  0    0",
		"false alarms  2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	if !containsFields(out, "a", "A", "lost-update", "1", "4", "10", "2", "0", "2", "80.0%", "NO", "3ms", "7ms") {
		t.Errorf("static row of a is wrong:\n%s", out)
	}
	// a: dependent 2/2 2.00s 3; all 1/2 4.00s 10; random 0/2 n/a n/a; ratios.
	if !containsFields(out, "a", "2/2", "2.00s", "3", "1/2", "4.00s", "10", "0/2", "n/a", "n/a", "3.50×", "5.00×", "5.00×", "2.00×") {
		t.Errorf("dynamic row of a is wrong:\n%s", out)
	}
	if !containsFields(out, "all", "2", "77.5%", "50%", "6.00s", "2", "75%", "6.00s", "12", "0%", "10.00s", "4", "2.00×", "5.00×", "3.00×", "2.00×") {
		t.Errorf("averages row is wrong:\n%s", out)
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
	slices.Sort(keys)
	if !slices.Equal(got, keys) {
		t.Errorf("%s keys %q, want %q", what, got, keys)
	}
}

func eq(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Abs(*a-*b) < 1e-9
}

func show(v *float64) string { return format(v, "%g") }

func TestWriteTextWithoutControls(t *testing.T) {
	rep := fixture()
	rep.Subjects = rep.Subjects[:2]
	var buf bytes.Buffer
	rep.WriteText(&buf)
	if strings.Contains(buf.String(), "Controls") {
		t.Errorf("a section on controls without controls:\n%s", buf.String())
	}
}
