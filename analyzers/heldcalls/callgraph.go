package heldcalls

import (
	"slices"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// dynamic returns the targets of a call through a function value or an
// interface, from the package's call graph.
func (a *analyzer) dynamic(instr ssa.CallInstruction) []*ssa.Function {
	if !a.cgOK {
		a.cgOK = true
		a.cg = a.callGraph()
	}
	if a.cg == nil {
		return nil
	}
	n := a.cg.Nodes[instr.Parent()]
	if n == nil {
		return nil
	}
	var out []*ssa.Function
	for _, e := range n.Out {
		// A call into sync is no call of unknown code: the entry of a
		// parameter that a helper runs with Once.Do has that call as
		// its instruction, and the parameter, not Do, is its target.
		if e.Site == instr && e.Callee.Func != nil && !slices.Contains(out, e.Callee.Func) && lockstate.SyncMethod(e.Callee.Func) == "" {
			out = append(out, e.Callee.Func)
		}
	}
	if len(out) > maxTargets {
		return nil
	}
	return out
}

// callGraph computes the VTA call graph of the package's functions. It
// returns nil if the computation fails (the functions are built without
// instantiating generics, which VTA expects).
func (a *analyzer) callGraph() (cg *callgraph.Graph) {
	defer func() {
		if recover() != nil {
			cg = nil
		}
	}()
	funcs := map[*ssa.Function]bool{}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if funcs[fn] || fn.TypeParams().Len() > 0 {
			return
		}
		funcs[fn] = true
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
		// Bound method values and method expressions are wrappers
		// outside SrcFuncs.
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil {
						continue
					}
					switch v := (*op).(type) {
					case *ssa.MakeClosure:
						add(v.Fn.(*ssa.Function))
					case *ssa.Function:
						if v.Synthetic != "" {
							add(v)
						}
					}
				}
			}
		}
	}
	for _, fn := range a.res.SSA.SrcFuncs {
		add(fn)
	}
	return vta.CallGraph(funcs, nil)
}
