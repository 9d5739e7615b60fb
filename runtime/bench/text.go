package bench

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText writes the report for a human: the static phase, the dynamic
// phase per subject and mode, the controls, and the averages.
func (r *Report) WriteText(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	buggy, controls := r.split()
	fmt.Fprintf(tw, "Static phase (times: one load and one analysis of the subject alone)\n")
	fmt.Fprintf(tw, "subject\ttype\tkind\tobjects\tmethods\t|M|\t|M_pc|\t|M_d|\t|M_pc∪M_d|\treduction\tpair kept\tload\tanalysis\n")
	for _, s := range r.Subjects {
		kept := "yes"
		switch {
		case s.Control:
			kept = "-"
		case !s.PairKept:
			kept = "NO"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f%%\t%s\t%s\t%s\n", s.Name, s.Type, s.Kind, s.Objects,
			s.Methods, s.PairsTotal, s.PairsPC, s.PairsD, s.Dependent, s.Reduction, kept, ms(s.Load), ms(s.Analysis))
	}
	tw.Flush()

	fmt.Fprintf(tw, "\nDynamic phase on the buggy subjects (SR: seeds that found the bug; FDT, #GT: means over those seeds; ×: depcon's ratio over the baseline)\n")
	fmt.Fprintf(tw, "subject")
	for _, m := range r.Modes {
		fmt.Fprintf(tw, "\t%s SR\tFDT\t#GT", m)
	}
	for _, m := range r.baselines() {
		fmt.Fprintf(tw, "\tFDT× %s\t#GT× %s", m, m)
	}
	fmt.Fprintln(tw)
	for _, s := range buggy {
		fmt.Fprintf(tw, "%s", s.Name)
		for _, m := range r.Modes {
			ms := s.Modes[m]
			fmt.Fprintf(tw, "\t%d/%d\t%s\t%s", int(math.Round(ms.SuccessRate*float64(r.Seeds))), r.Seeds,
				format(ms.FDT, "%.2fs"), format(ms.Tests, "%.0f"))
		}
		for _, m := range r.baselines() {
			fmt.Fprintf(tw, "\t%s\t%s", format(s.FDTSpeedup[m], "%.2f×"), format(s.TestsReduction[m], "%.2f×"))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()

	if len(controls) > 0 {
		fmt.Fprintf(tw, "\nControls (every violation is a false alarm)\ncontrol\ttype")
		for _, m := range r.Modes {
			fmt.Fprintf(tw, "\t%s", m)
		}
		fmt.Fprintln(tw)
		for _, s := range controls {
			fmt.Fprintf(tw, "%s\t%s", s.Name, s.Type)
			for _, m := range r.Modes {
				fmt.Fprintf(tw, "\t%s", alarms(s.Modes[m].FalseAlarms))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}

	r.writeRemarks(w, buggy)
	r.writeAverages(tw, buggy)
	tw.Flush()
}

// writeRemarks lists the false alarms on buggy subjects (violations of a
// kind the truth does not allow) and why types were not tested.
func (r *Report) writeRemarks(w io.Writer, buggy []*SubjectReport) {
	var lines []string
	for _, s := range buggy {
		for _, m := range r.Modes {
			if fa := s.Modes[m].FalseAlarms; len(fa) > 0 {
				lines = append(lines, fmt.Sprintf("%s, %s: false alarm: %s", s.Name, m, alarms(fa)))
			}
		}
	}
	for _, s := range r.Subjects {
		for _, m := range r.Modes {
			for _, n := range s.Modes[m].Notes {
				lines = append(lines, fmt.Sprintf("%s, %s: %s", s.Name, m, n))
			}
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(w, "\nRemarks\n  %s\n", strings.Join(lines, "\n  "))
	}
}

// writeAverages writes the means over all buggy subjects, over those of
// exception kinds and over the deadlocks, the way DepCon's tables do.
func (r *Report) writeAverages(tw *tabwriter.Writer, buggy []*SubjectReport) {
	fmt.Fprintf(tw, "\nAverages over the buggy subjects (FDT_B, #GT_B: a failed run counts the budget, %v, and the tests it ran)\n", r.Budget)
	fmt.Fprintf(tw, "subjects\tn\treduction")
	for _, m := range r.Modes {
		fmt.Fprintf(tw, "\t%s SR\tFDT_B\t#GT_B", m)
	}
	for _, m := range r.baselines() {
		fmt.Fprintf(tw, "\tFDT× %s\t#GT× %s", m, m)
	}
	fmt.Fprintln(tw)
	var exc, dl []*SubjectReport
	for _, s := range buggy {
		if s.Deadlock {
			dl = append(dl, s)
		} else {
			exc = append(exc, s)
		}
	}
	for _, g := range []struct {
		name string
		ss   []*SubjectReport
	}{{"all", buggy}, {"exception", exc}, {"deadlock", dl}} {
		fmt.Fprintf(tw, "%s\t%d\t%s", g.name, len(g.ss), format(mean(g.ss, func(s *SubjectReport) *float64 { return ptr(s.Reduction) }), "%.1f%%"))
		for _, m := range r.Modes {
			fmt.Fprintf(tw, "\t%s\t%s\t%s",
				format(mean(g.ss, func(s *SubjectReport) *float64 { return ptr(100 * s.Modes[m].SuccessRate) }), "%.0f%%"),
				format(mean(g.ss, func(s *SubjectReport) *float64 { return ptr(s.Modes[m].FDTBudget) }), "%.2fs"),
				format(mean(g.ss, func(s *SubjectReport) *float64 { return ptr(s.Modes[m].TestsBudget) }), "%.0f"))
		}
		for _, m := range r.baselines() {
			fmt.Fprintf(tw, "\t%s\t%s",
				format(mean(g.ss, func(s *SubjectReport) *float64 { return s.FDTSpeedup[m] }), "%.2f×"),
				format(mean(g.ss, func(s *SubjectReport) *float64 { return s.TestsReduction[m] }), "%.2f×"))
		}
		fmt.Fprintln(tw)
	}
	fa := 0
	for _, s := range r.Subjects {
		fa += s.FalseAlarms
	}
	fmt.Fprintf(tw, "false alarms\t%d\n", fa)
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

// baselines returns the modes depcon is compared with, when it ran.
func (r *Report) baselines() []string {
	var bs []string
	for _, m := range r.Modes {
		if m != ModeDependent {
			bs = append(bs, m)
		}
	}
	if len(bs) == len(r.Modes) {
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

// alarms lists false alarms, "0" for none.
func alarms(fa []string) string {
	if len(fa) == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%s)", len(fa), strings.Join(fa, "; "))
}

func ms(d time.Duration) string { return fmt.Sprintf("%dms", d.Milliseconds()) }
