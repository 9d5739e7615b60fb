package rwrdeadlock

import (
	_ "embed"
	"fmt"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/heldcalls"
	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockrules"
	"github.com/depcon/depcon/analyzers/internal/report"
	"github.com/depcon/depcon/analyzers/summary"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:      "rwrdeadlock",
	Doc:       analysisdoc.MustExtract(doc, "rwrdeadlock"),
	URL:       "https://pkg.go.dev/github.com/depcon/depcon/analyzers/rwrdeadlock",
	Requires:  []*analysis.Analyzer{summary.Analyzer, heldcalls.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(Writers)},
}

// Writers is the package fact listing the RWMutex classes a package
// write-locks, so that a recursive read lock in an importing package sees
// the writers of the lock's own package.
type Writers struct {
	Writers []Writer
}

// A Writer is a lock class write-locked at Where, in Func.
type Writer struct {
	Class, Where, Func string
}

func (*Writers) AFact() {}

func (w *Writers) String() string {
	var s []string
	for _, x := range w.Writers {
		s = append(s, x.Class)
	}
	return strings.Join(s, ", ")
}

// writer is a write acquisition, here or in another package.
type writer struct {
	pos   token.Pos
	where string
}

func run(pass *analysis.Pass) (any, error) {
	funcs := report.Funcs(pass)
	// The write acquisitions of each lock class in the package (read
	// locks are only of RWMutex classes, so any class will do).
	writers := map[string]writer{}
	var local []Writer
	for _, f := range funcs {
		for _, a := range f.Summary.Acquires {
			if _, ok := writers[a.Class]; !ok && lockrules.Writer(a.Class, a.Mode, a.Class) {
				writers[a.Class] = writer{pos: a.Pos, where: a.Where}
				local = append(local, Writer{Class: a.Class, Where: a.Where, Func: f.Fn.Name()})
			}
		}
	}
	// And those of the packages it imports.
	for _, pf := range pass.AllPackageFacts() {
		if pf.Package == pass.Pkg {
			continue
		}
		for _, w := range pf.Fact.(*Writers).Writers {
			if _, ok := writers[w.Class]; !ok {
				writers[w.Class] = writer{where: w.Where}
			}
		}
	}
	if len(local) > 0 {
		sort.Slice(local, func(i, j int) bool { return local[i].Class < local[j].Class })
		pass.ExportPackageFact(&Writers{Writers: local})
	}
	reported := map[string]bool{}
	diag := func(f report.Func, pos token.Pos, lock, via string, h summary.Held, w writer) {
		key := fmt.Sprint(pos, lock)
		if reported[key] {
			return
		}
		reported[key] = true
		pass.Report(analysis.Diagnostic{
			Pos: pos,
			Message: fmt.Sprintf("%s is read-locked%s while already read-locked (at %s), and is write-locked at %s: a writer waiting in between blocks the second RLock forever",
				f.Name(lock), via, report.Short(h.Where), report.Short(w.where)),
			Related: append(report.Related(h.Pos, "first read lock"), report.Related(w.pos, "write lock")...),
		})
	}
	for _, f := range funcs {
		for _, a := range f.Summary.Acquires {
			if !a.Pos.IsValid() {
				continue
			}
			for _, h := range a.Held {
				if h.Via != "" || lockrules.Classify(h.Lock, h.Mode, a.Lock, a.Mode) != lockrules.RecursiveRead {
					continue
				}
				if w, ok := writers[a.Class]; ok {
					diag(f, a.Pos, a.Lock, report.Via(a.Via), h, w)
				}
			}
		}
	}
	// Through function values, interface methods and recursive calls.
	for _, ev := range pass.ResultOf[heldcalls.Analyzer].(*heldcalls.Result).Events {
		h, a := ev.Held, ev.Acq
		if !ev.Reentry() || lockrules.Classify(h.Lock, h.Mode, a.Lock, a.Mode) != lockrules.RecursiveRead {
			continue
		}
		w, ok := writers[a.Class]
		if !ok {
			w, ok = writers[h.Class]
		}
		if !ok {
			continue
		}
		how := ev.How()
		f := report.Func{Fn: ev.Fn, Names: summary.ParamNames(ev.Fn)}
		diag(f, ev.Pos, a.Lock, " (in "+a.Via+", "+how+")", summary.Held{Lock: h.Lock, Mode: h.Mode, Pos: h.Pos, Where: h.Where}, w)
	}
	return nil, nil
}
