package bench

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/depcon/depcon/runtime/testgen"
)

// WriteText writes the report for a human: the static phase, the dynamic
// phase per scheduler, subject and pair selection, the controls, the violations
// other than the bugs, the averages and ratios, and the schedulers
// compared.
func (r *Report) WriteText(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	buggy, controls := r.split()
	r.writeStatic(tw)
	for _, sched := range r.Scheds {
		r.writeDynamic(tw, buggy, sched)
	}
	r.writeControls(tw, controls)
	r.writeRemarks(w, buggy)
	for _, sched := range r.Scheds {
		r.writeAverages(tw, buggy, sched)
		r.writeRatios(tw, sched)
	}
	r.writeSchedulers(tw)
}

// WriteHeader writes the lines that precede the text report: the corpus,
// its subjects and the settings of the bench of opt; the machine it ran
// on, when it started (start), how long it took until now and the load
// average at the end; then an empty line.
func (r *Report) WriteHeader(w io.Writer, opt Options, start time.Time) {
	buggy, controls := r.split()
	fmt.Fprintf(w, "depcon bench %s: %d buggy subjects (%d hard), %d controls; schedulers %s; pairs %s; seeds 1..%d; budget %v per type and run; %d at once\n",
		opt.Dir, len(buggy), len(group(buggy, GroupHard)), len(controls), strings.Join(opt.Scheds, ", "), strings.Join(opt.Pairs, ", "),
		opt.Seeds, opt.Budget, opt.Parallel)
	fmt.Fprintf(w, "machine: %s; started %s, took %v; load average (1, 5, 15 min) at the end: %s\n\n",
		machine(), start.Format(time.RFC3339), time.Since(start).Round(time.Second), loadAverage())
}

// writeStatic writes the plans and the costs.
func (r *Report) writeStatic(tw *tabwriter.Writer) {
	fmt.Fprintf(tw, "Static phase and build (times: one load, one analysis and one build of the child of the subject alone; cost: their sum)\n")
	fmt.Fprintf(tw, "subject\ttype\tkind\thard\tfind\tobjects\tmethods\t|M|\t|M_pc|\t|M_d|\t|M_pc∪M_d|\treduction\tpair kept\tload\tanalysis\tbuild\tcost\n")
	for _, s := range r.Subjects {
		kept := "yes"
		switch {
		case s.Control:
			kept = "-"
		case !s.PairKept:
			kept = "NO"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f%%\t%s\t%s\t%s\t%s\t%s\n", s.Name, s.Type, s.Kind,
			yes(s.Hard), s.Find, s.Objects, s.Methods, s.PairsTotal, s.PairsPC, s.PairsD, s.PairsDependent, s.Reduction, kept,
			ms(s.Load), ms(s.Analysis), ms(s.Build), ms(s.Cost))
	}
	tw.Flush()
}

// writeDynamic writes the runs of the buggy subjects with one scheduler.
func (r *Report) writeDynamic(tw *tabwriter.Writer, buggy []*SubjectReport, sched string) {
	if len(buggy) == 0 {
		return
	}
	fmt.Fprintf(tw, "\nDynamic phase on the buggy subjects, scheduler %s (SR: seeds that found the bug; FDT, FDT+ (with the cost), #GT: means over those seeds; ×: depcon's ratio over the baseline, FDT_B based)\n", sched)
	fmt.Fprintf(tw, "subject")
	for _, m := range r.Pairs {
		fmt.Fprintf(tw, "\t%s SR\tFDT\tFDT+\t#GT", m)
	}
	for _, m := range r.baselines() {
		fmt.Fprintf(tw, "\tFDT× %s\tFDT+× %s\t#GT× %s", m, m, m)
	}
	fmt.Fprintln(tw)
	for _, s := range buggy {
		fmt.Fprintf(tw, "%s", s.Name)
		for _, m := range r.Pairs {
			ms := s.stats(sched, m)
			fmt.Fprintf(tw, "\t%d/%d\t%s\t%s\t%s", int(math.Round(ms.SuccessRate*float64(r.Seeds))), r.Seeds,
				format(ms.FDT, "%.2fs"), format(ms.FDTTotal, "%.2fs"), format(ms.Tests, "%.0f"))
		}
		for _, m := range r.baselines() {
			ms := s.stats(sched, m)
			fmt.Fprintf(tw, "\t%s\t%s\t%s", format(ms.FDTSpeedup, "%.2f×"), format(ms.FDTTotalSpeedup, "%.2f×"),
				format(ms.TestsReduction, "%.2f×"))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// writeControls writes the dependent pairs and false alarms of each
// control, and warns about controls without dependent pairs.
func (r *Report) writeControls(tw *tabwriter.Writer, controls []*SubjectReport) {
	if len(controls) == 0 {
		return
	}
	fmt.Fprintf(tw, "\nControls (every violation is a false alarm; |M_pc∪M_d|: dependent pairs)\ncontrol\ttype\t|M_pc∪M_d|")
	for _, sched := range r.Scheds {
		for _, m := range r.Pairs {
			fmt.Fprintf(tw, "\t%s/%s", sched, m)
		}
	}
	fmt.Fprintln(tw)
	var without []string
	for _, s := range controls {
		fmt.Fprintf(tw, "%s\t%s\t%d", s.Name, s.Type, s.PairsDependent)
		for _, sched := range r.Scheds {
			for _, m := range r.Pairs {
				fmt.Fprintf(tw, "\t%s", alarms(s.stats(sched, m)))
			}
		}
		fmt.Fprintln(tw)
		if s.PairsDependent == 0 {
			without = append(without, s.Name)
		}
	}
	tw.Flush()
	fmt.Fprintf(tw, "\nEnd of the controls' testing (mean time; runs that ended by saturation, not by the budget)\ncontrol")
	for _, sched := range r.Scheds {
		for _, m := range r.Pairs {
			fmt.Fprintf(tw, "\t%s/%s", sched, m)
		}
	}
	fmt.Fprintln(tw)
	for _, s := range controls {
		fmt.Fprintf(tw, "%s", s.Name)
		for _, sched := range r.Scheds {
			for _, m := range r.Pairs {
				ms := s.stats(sched, m)
				fmt.Fprintf(tw, "\t%.2fs %d/%d", ms.Ended, ms.Saturated, r.Seeds)
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	sum := r.Summary
	fmt.Fprintf(tw, "%d of %d controls have dependent pairs (the corpus needs at least %d)\n", sum.ControlsWithDependentPairs,
		sum.Controls, MinControls)
	if len(without) > 0 {
		fmt.Fprintf(tw, "warning: no dependent pairs in %s: the dependent pairs test nothing there, which proves nothing about false alarms\n",
			strings.Join(without, ", "))
	}
	tw.Flush()
}

// writeRemarks lists the violations other than the bugs on the buggy
// subjects, with their judgements, and why types were not tested.
func (r *Report) writeRemarks(w io.Writer, buggy []*SubjectReport) {
	var lines []string
	for _, s := range buggy {
		for _, sched := range r.Scheds {
			for _, m := range r.Pairs {
				for _, o := range s.stats(sched, m).Others {
					verdict := "false alarm (not judged in truth.json)"
					switch {
					case o.Real:
						verdict = "judged real: " + o.Note
					case o.Judged:
						verdict = "false alarm (judged not real: " + o.Note + ")"
					}
					lines = append(lines, fmt.Sprintf("%s, %s/%s: other violation %s %s∥%s in %d of %d runs: %s",
						s.Name, sched, m, o.Kind, o.Pair[0], o.Pair[1], o.Count, r.Seeds, verdict))
				}
			}
		}
	}
	for _, s := range r.Subjects {
		for _, sched := range r.Scheds {
			for _, m := range r.Pairs {
				for _, n := range s.stats(sched, m).Notes {
					lines = append(lines, fmt.Sprintf("%s, %s/%s: %s", s.Name, sched, m, n))
				}
			}
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(w, "\nRemarks\n  %s\n", strings.Join(lines, "\n  "))
	}
}

// writeAverages writes, for one scheduler, the arithmetic means of the
// success rates, FDT_B, FDT+_B and #GT_B over the buggy subjects, those
// of each kind depcon test looks for, and the hard and ordinary ones.
func (r *Report) writeAverages(tw *tabwriter.Writer, buggy []*SubjectReport, sched string) {
	fmt.Fprintf(tw, "\nAverages over the buggy subjects, scheduler %s (arithmetic means of the per-subject values; FDT_B, FDT+_B, #GT_B: a failed run counts the budget, %v, and the tests it ran)\n", sched, r.Budget)
	fmt.Fprintf(tw, "subjects\tn\treduction")
	for _, m := range r.Pairs {
		fmt.Fprintf(tw, "\t%s SR\tFDT_B\tFDT+_B\t#GT_B", m)
	}
	fmt.Fprintln(tw)
	for _, g := range []string{GroupAll, GroupException, GroupDeadlock, GroupHard, GroupOrdinary} {
		ss := group(buggy, g)
		fmt.Fprintf(tw, "%s\t%d\t%s", g, len(ss), format(arithMean(values(ss, func(s *SubjectReport) *float64 { return ptr(s.Reduction) })), "%.1f%%"))
		for _, m := range r.Pairs {
			mean := func(f func(*RunStats) float64) *float64 {
				return arithMean(values(ss, func(s *SubjectReport) *float64 { return ptr(f(s.stats(sched, m))) }))
			}
			fmt.Fprintf(tw, "\t%s\t%s\t%s\t%s",
				format(mean(func(ms *RunStats) float64 { return 100 * ms.SuccessRate }), "%.0f%%"),
				format(mean(func(ms *RunStats) float64 { return ms.FDTBudget }), "%.2fs"),
				format(mean(func(ms *RunStats) float64 { return ms.FDTTotalBudget }), "%.2fs"),
				format(mean(func(ms *RunStats) float64 { return ms.TestsBudget }), "%.0f"))
		}
		fmt.Fprintln(tw)
	}
	fa := 0
	for _, s := range r.Subjects {
		for _, m := range r.Pairs {
			fa += s.stats(sched, m).FalseAlarms
		}
	}
	fmt.Fprintf(tw, "false alarms\t%d\n", fa)
	tw.Flush()
}

// writeRatios writes, for one scheduler, the ratios of depcon over each
// baseline aggregated over the buggy subjects where they are defined.
func (r *Report) writeRatios(tw *tabwriter.Writer, sched string) {
	if len(r.baselines()) == 0 {
		return
	}
	fmt.Fprintf(tw, "\nRatios of depcon (dependent) over the baselines, scheduler %s (per subject, then over the subjects where defined; FDT+: the cost counted)\n", sched)
	fmt.Fprintf(tw, "ratio\tsubjects\tn\tgeomean\tmedian\tarithmetic mean\n")
	for _, m := range r.baselines() {
		sum := r.Summary.Scheds[sched][m]
		for _, x := range []struct {
			name string
			aggs map[string]*Agg
		}{{"FDT× " + m, sum.FDTSpeedup}, {"FDT+× " + m, sum.FDTTotalSpeedup}, {"#GT× " + m, sum.TestsReduction}} {
			for _, g := range []string{GroupAll, GroupException, GroupDeadlock} {
				a := x.aggs[g]
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", x.name, g, a.N, format(a.GeoMean, "%.2f×"), format(a.Median, "%.2f×"),
					format(a.Mean, "%.2f×"))
			}
		}
	}
	tw.Flush()
}

// writeSchedulers compares the schedulers: per scheduler and pair selection, the
// success rate and FDT on the hard and the ordinary subjects, the
// slowdown against stress on the ordinary ones, and the false alarms.
func (r *Report) writeSchedulers(tw *tabwriter.Writer) {
	fmt.Fprintf(tw, "\nSchedulers (SR: mean success rate; FDT: over the successful runs; FDT_B: over the subjects' FDT_B; ×stress: FDT_B against stress's, per ordinary subject, geometric mean and median)\n")
	fmt.Fprintf(tw, "scheduler\tpairs\tsubjects\tn\tSR\tFDT mean\tFDT median\tFDT_B mean\tFDT_B median\t×stress geomean\t×stress median\n")
	for _, sched := range r.Scheds {
		for _, m := range r.Pairs {
			sum := r.Summary.Scheds[sched][m]
			for _, g := range []struct {
				name string
				gs   *GroupStats
			}{{GroupHard, sum.Hard}, {GroupOrdinary, sum.Ordinary}} {
				slow := []string{"-", "-"}
				if g.name == GroupOrdinary && sum.SlowdownVsStress != nil {
					slow = []string{format(sum.SlowdownVsStress.GeoMean, "%.2f×"), format(sum.SlowdownVsStress.Median, "%.2f×")}
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", sched, m, g.name, g.gs.N,
					format(scale(g.gs.SuccessRate, 100), "%.0f%%"), format(g.gs.FDTMean, "%.2fs"), format(g.gs.FDTMedian, "%.2fs"),
					format(g.gs.FDTBudgetMean, "%.2fs"), format(g.gs.FDTBudgetMedian, "%.2fs"), slow[0], slow[1])
			}
		}
	}
	tw.Flush()
	fmt.Fprintf(tw, "\nFalse alarms per scheduler\nscheduler\tpairs\ton controls\ton buggy subjects\n")
	for _, sched := range r.Scheds {
		for _, m := range r.Pairs {
			sum := r.Summary.Scheds[sched][m]
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\n", sched, m, sum.FalseAlarmsControls, sum.FalseAlarmsBuggy)
		}
	}
	tw.Flush()
}

// split returns the buggy subjects and the controls.
func (r *Report) split() (buggy, controls []*SubjectReport) {
	for _, s := range r.Subjects {
		if s.Control {
			controls = append(controls, s)
		} else {
			buggy = append(buggy, s)
		}
	}
	return buggy, controls
}

// baselines returns the pair selections depcon is compared with, when it ran.
func (r *Report) baselines() []string {
	var bs []string
	for _, m := range r.Pairs {
		if m != testgen.PairsDependent {
			bs = append(bs, m)
		}
	}
	if len(bs) == len(r.Pairs) {
		return nil
	}
	return bs
}

// format formats *v, "n/a" when v is nil.
func format(v *float64, f string) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf(f, *v)
}

func scale(v *float64, k float64) *float64 {
	if v == nil {
		return nil
	}
	return ptr(*v * k)
}

// alarms shows the false alarms of a dimension, "0" for none.
func alarms(ms *RunStats) string {
	if ms.FalseAlarms == 0 {
		return "0"
	}
	var fa []string
	for _, o := range ms.Others {
		if o.FalseAlarm() {
			fa = append(fa, fmt.Sprintf("%s %s∥%s ×%d", o.Kind, o.Pair[0], o.Pair[1], o.Count))
		}
	}
	return fmt.Sprintf("%d (%s)", ms.FalseAlarms, strings.Join(fa, "; "))
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}

func ms(seconds float64) string {
	return fmt.Sprintf("%dms", time.Duration(seconds*float64(time.Second)).Round(time.Millisecond).Milliseconds())
}
