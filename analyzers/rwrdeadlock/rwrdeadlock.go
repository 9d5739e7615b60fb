package rwrdeadlock

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

var Analyzer = &analysis.Analyzer{
	Name:     "rwrdeadlock",
	Doc:      doc,
	URL:      "https://pkg.go.dev/github.com/depcon/depcon/analyzers/rwrdeadlock",
	Requires: []*analysis.Analyzer{summary.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	funcs := report.Funcs(pass)
	// The write acquisitions of each lock class in the package.
	writers := map[string]summary.Acquire{}
	for _, f := range funcs {
		for _, a := range f.Summary.Acquires {
			if _, ok := writers[a.Class]; !ok && a.Mode == summary.W {
				writers[a.Class] = a
			}
		}
	}
	reported := map[string]bool{}
	for _, f := range funcs {
		for _, a := range f.Summary.Acquires {
			if a.Mode != summary.R || !a.Pos.IsValid() {
				continue
			}
			for _, h := range a.Held {
				if h.Lock != a.Lock || h.Mode != summary.R || h.Via != "" {
					continue
				}
				w, ok := writers[a.Class]
				if !ok {
					continue
				}
				key := fmt.Sprint(a.Pos, a.Lock)
				if reported[key] {
					continue
				}
				reported[key] = true
				pass.Report(analysis.Diagnostic{
					Pos: a.Pos,
					Message: fmt.Sprintf("%s is read-locked%s while already read-locked (at %s), and is write-locked at %s: a writer waiting in between blocks the second RLock forever",
						f.Name(a.Lock), report.Via(a.Via), report.Short(h.Where), report.Short(w.Where)),
					Related: append(report.Related(h.Pos, "first read lock"), report.Related(w.Pos, "write lock")...),
				})
			}
		}
	}
	return nil, nil
}
