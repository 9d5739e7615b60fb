package lockleak

import (
	_ "embed"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"

	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/lockflow"
)

//go:embed doc.go
var doc string

// Analyzer reports locks that some paths of a function release and
// others leave held, from the lock flows of lockflow.Analyzer.
var Analyzer = &analysis.Analyzer{
	Name:     "lockleak",
	Doc:      analysisdoc.MustExtract(doc, "lockleak"),
	URL:      "https://pkg.go.dev/github.com/depcon/depcon/analyzers/lockleak",
	Requires: []*analysis.Analyzer{buildssa.Analyzer, lockflow.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	prog := pass.ResultOf[lockflow.Analyzer].(*lockflow.Program)
	callers := &callIndex{funcs: ssainfo.SrcFuncs}
	callers.index()
	for _, fn := range ssainfo.SrcFuncs {
		if fn.Synthetic != "" {
			continue // a range-over-func body: its returns are continues
		}
		f := prog.Flow(fn)
		if f == nil {
			continue
		}
		r := &reporter{pass: pass, f: f, sx: newSyntax(fn), done: map[token.Pos]bool{}, callers: callers}
		r.returns()
		if r.sx != nil {
			r.loops()
		}
	}
	return nil, nil
}

// A reporter reports the leaks of one function, from its lock flow.
type reporter struct {
	pass    *analysis.Pass
	f       *lockflow.Flow
	sx      *syntax
	done    map[token.Pos]bool
	callers *callIndex
}

func (r *reporter) excluded(k string) bool {
	return r.f.EntryHeld(k) || r.f.HandedOff(k)
}

func (r *reporter) keys() []string {
	return slices.DeleteFunc(r.f.Keys(), r.excluded)
}

func (r *reporter) report(pos token.Pos, msg string, related ...analysis.RelatedInformation) {
	if !pos.IsValid() || r.done[pos] {
		return
	}
	r.done[pos] = true
	var rel []analysis.RelatedInformation
	for _, x := range related {
		if x.Pos.IsValid() {
			rel = append(rel, x)
		}
	}
	r.pass.Report(analysis.Diagnostic{Pos: pos, Message: msg, Related: rel})
}

func (r *reporter) short(pos token.Pos) string {
	p := r.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func (r *reporter) acqText(a lockflow.Acq) string {
	verb := "locked"
	if a.Read {
		verb = "read-locked"
	}
	if a.Via != "" {
		return fmt.Sprintf("%s by %s at %s", verb, a.Via, r.short(a.Pos))
	}
	return fmt.Sprintf("%s at %s", verb, r.short(a.Pos))
}
