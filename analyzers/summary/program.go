package summary

import (
	"go/token"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A Program computes summaries over a whole program, as depcon pairs and
// depcon test can when they load every package at once: every function
// body is at hand (no facts are needed) and the calls through interfaces
// and function values are resolved by a call graph (go/callgraph's cha or
// vta) instead of being modelled as unknown code. A dynamic call with more
// than a few possible callees is still unknown code.
type Program struct {
	b     *builder
	sites map[ssa.CallInstruction][]*ssa.Function
}

// NewProgram returns a Program over prog, which must be built, with
// dynamic calls resolved by cg (nil: they are unknown code).
func NewProgram(prog *ssa.Program, cg *callgraph.Graph) *Program {
	p := &Program{}
	p.b = &builder{
		fset:  prog.Fset,
		local: token.Pos.IsValid,
		here:  func(*ssa.Function) bool { return true },
		sums:  map[*ssa.Function]*Summary{},
	}
	docs := &fileDocs{fset: prog.Fset, files: map[string]map[token.Pos]string{}}
	p.b.doc = docs.doc
	var funcs []*ssa.Function
	for fn := range ssautil.AllFunctions(prog) {
		if fn.Parent() == nil {
			funcs = append(funcs, fn)
		}
	}
	p.b.chanLocks = lockstate.FindChanLocks(funcs)
	if cg != nil {
		p.sites = map[ssa.CallInstruction][]*ssa.Function{}
		for _, n := range cg.Nodes {
			for _, e := range n.Out {
				if e.Site != nil && e.Callee.Func != nil && e.Site.Common().StaticCallee() == nil {
					p.sites[e.Site] = append(p.sites[e.Site], e.Callee.Func)
				}
			}
		}
		p.b.dynamic = func(ci ssa.CallInstruction) []*ssa.Function { return p.sites[ci] }
	}
	return p
}

// Types returns the named types of pkg with methods, with the
// whole-program summaries of their methods.
func (p *Program) Types(pkg *ssa.Package) []*Type { return p.b.types(pkg) }
