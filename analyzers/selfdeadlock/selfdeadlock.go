package selfdeadlock

import (
	_ "embed"
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/heldcalls"
	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockrules"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "selfdeadlock",
	Doc:      analysisdoc.MustExtract(doc, "selfdeadlock"),
	URL:      "https://pkg.go.dev/github.com/depcon/depcon/analyzers/selfdeadlock",
	Requires: []*analysis.Analyzer{summary.Analyzer, heldcalls.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	chanLocks := pass.ResultOf[summary.Analyzer].(*summary.Result).ChanLocks
	// why says why re-acquiring a lock of class never returns.
	why := func(class string) string {
		if chanLocks[class] {
			return "a channel of one slot used as a mutex is full while held, this send never returns"
		}
		return "sync mutexes are not reentrant, this call never returns"
	}
	reported := map[string]bool{}
	for _, f := range report.Funcs(pass) {
		for _, a := range f.Summary.Acquires {
			for _, h := range a.Held {
				// Only a lock held by this function itself: a callee that
				// deadlocks on its own is reported in the callee.
				if h.Via != "" || !a.Pos.IsValid() {
					continue
				}
				if lockrules.Classify(h.Lock, h.Mode, a.Lock, a.Mode) != lockrules.Reacquire {
					continue // an order (lockorder), a recursive read lock (rwrdeadlock)
				}
				key := fmt.Sprint(a.Pos, a.Lock)
				if reported[key] {
					continue
				}
				reported[key] = true
				pass.Report(analysis.Diagnostic{
					Pos: a.Pos,
					Message: fmt.Sprintf("%s is locked%s while already held (%s at %s): %s",
						f.Name(a.Lock), report.Via(a.Via), lockVerb(h.Mode), report.Short(h.Where), why(a.Class)),
					Related: report.Related(h.Pos, fmt.Sprintf("%s acquired here", f.Name(h.Lock))),
				})
			}
		}
	}
	// Through function values, interface methods and recursive calls.
	for _, ev := range pass.ResultOf[heldcalls.Analyzer].(*heldcalls.Result).Events {
		h, a := ev.Held, ev.Acq
		if !ev.Reentry() || lockrules.Classify(h.Lock, h.Mode, a.Lock, a.Mode) != lockrules.Reacquire {
			continue
		}
		key := fmt.Sprint(ev.Pos, a.Lock)
		if reported[key] {
			continue
		}
		reported[key] = true
		f := report.Func{Fn: ev.Fn, Names: summary.ParamNames(ev.Fn)}
		how := ev.How()
		pass.Report(analysis.Diagnostic{
			Pos: ev.Pos,
			Message: fmt.Sprintf("%s is locked (in %s, %s) while already held (%s at %s): %s",
				f.Name(a.Lock), a.Via, how, lockVerb(h.Mode), report.Short(h.Where), why(a.Class)),
			Related: report.Related(h.Pos, fmt.Sprintf("%s acquired here", f.Name(h.Lock))),
		})
	}
	return nil, nil
}

func lockVerb(m lockstate.Mode) string {
	if m == lockstate.R {
		return "read-locked"
	}
	return "locked"
}
