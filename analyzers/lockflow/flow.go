package lockflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// Program holds the lock flows of a package's functions. It is safe for
// concurrent use: the analyzers that read it may run in parallel, and
// flows are computed on demand.
type Program struct {
	mu       sync.Mutex // guards the flows, and every Flow's paths and namer
	pkg      *ssa.Package
	noReturn func(*ssa.Function) bool
	// chanLocks holds the classes of the package's channel fields used
	// as mutexes (lockstate.FindChanLocks), nil when there are none.
	chanLocks map[string]bool
	flows     map[*ssa.Function]*Flow
	busy      map[*ssa.Function]bool
	// specs are the flows of functions specialised for constant bool
	// arguments (see callSummary).
	specs lockstate.Specs[*Flow]
	// recv maps the position of a method call to the source text of
	// its receiver, to name local locks in messages.
	recv map[token.Pos]string
}

// NewProgram returns an empty Program for pkg; noReturn tells calls that
// never return (os.Exit, log.Fatal...).
func NewProgram(pkg *ssa.Package, files []*ast.File, noReturn func(*ssa.Function) bool) *Program {
	p := &Program{pkg: pkg, noReturn: noReturn, flows: map[*ssa.Function]*Flow{}, busy: map[*ssa.Function]bool{}, recv: map[token.Pos]string{}}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
					p.recv[c.Lparen] = types.ExprString(sel.X)
				}
			}
			return true
		})
	}
	return p
}

// Flow is the lock dataflow of one function.
type Flow struct {
	Fn    *ssa.Function
	namer *lockstate.Namer
	prog  *Program
	eng   *lockstate.Engine[*State]
	in    map[*ssa.BasicBlock]*State
	paths map[string]lockstate.ExactPath
	// entryHeld lists locks the function releases while they may be
	// held on entry: it works on its caller's lock.
	entryHeld map[string]bool
	// entryReleased lists those it releases while they are held on
	// entry for sure: directly, or through a callee that releases its
	// caller's lock (not one that locks and unlocks it itself). Under
	// leaves them out; entryHeld, wider, decides what lockleak reports.
	entryReleased map[string]bool
	// handedOff lists locks that a goroutine or an escaping function
	// value releases.
	handedOff map[string]bool
	// releasers are closures made in the function that release locks;
	// a dynamic call may call one of them.
	releasers []string
	summary   *Summary
}

// flow returns the lock flow of fn, computing it if needed, or nil when
// fn has no body or is being computed (recursion).
func (p *Program) flow(fn *ssa.Function) *Flow {
	if f, ok := p.flows[fn]; ok {
		return f
	}
	if p.busy[fn] || len(fn.Blocks) == 0 {
		return nil
	}
	p.busy[fn] = true
	f := p.compute(fn, lockstate.Consts{})
	delete(p.busy, fn)
	p.flows[fn] = f
	return f
}

// compute computes the lock flow of fn, specialised for the constant
// arguments k (zero: none).
func (p *Program) compute(fn *ssa.Function, k lockstate.Consts) *Flow {
	f := &Flow{Fn: fn, namer: lockstate.NewNamer(fn), prog: p, in: map[*ssa.BasicBlock]*State{}, paths: map[string]lockstate.ExactPath{},
		entryHeld: map[string]bool{}, entryReleased: map[string]bool{}, handedOff: map[string]bool{}}
	f.eng = lockstate.NewEngine[*State](fn, ops{f}, p.chanLocks)
	f.eng.Assume(k)
	f.eng.NoReturn(p.noReturn)
	f.prescan()
	f.solve()
	f.summarize()
	return f
}

// summaryOf returns the summary of a callee, or nil when it has none:
// functions outside the package (other than the wrappers of bound
// methods, which are synthesized) are assumed to leave locks alone.
func (p *Program) summaryOf(fn *ssa.Function) *Summary {
	if fn == nil {
		return nil
	}
	if fn.Pkg != p.pkg && fn.Synthetic == "" {
		return nil
	}
	f := p.flow(fn)
	if f == nil {
		return nil
	}
	return f.summary
}

// callSummary returns the summary of a callee called with args: that
// of its flow specialised for the constant bool arguments among args
// (see lockstate.BoolArgs), or its general one (summaryOf) when there
// are none, when the callee's general flow is being computed (a
// recursion), or when it has been specialised too often already
// (lockstate.Specs).
func (p *Program) callSummary(fn *ssa.Function, args []ssa.Value) *Summary {
	sum := p.summaryOf(fn)
	if sum == nil || fn.Pkg != p.pkg {
		return sum
	}
	k := lockstate.BoolArgs(fn, args)
	spec, ok := p.specs.Get(k, func() (*Flow, bool) { return p.compute(fn, k), true })
	if !ok {
		return sum
	}
	return spec.summary
}

// prescan finds the closures that release locks they may be entered
// holding, and those of them that escape (returned, stored, passed on,
// run by a go statement: the lock is handed to whoever calls them).
func (f *Flow) prescan() {
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			fn, _ := mc.Fn.(*ssa.Function)
			s := f.prog.summaryOf(fn)
			if s == nil {
				continue
			}
			var released []string
			for k := range s.EntryReleased {
				// A lock it may be entered holding: one it takes and
				// releases itself is not its caller's to release.
				if p, ok := f.mapPath(s, k, nil, mc.Bindings); ok {
					released = append(released, p.Key())
					f.paths[p.Key()] = p
				}
			}
			if len(released) == 0 {
				continue
			}
			f.releasers = append(f.releasers, released...)
			if escapes(mc) {
				for _, k := range released {
					f.handedOff[k] = true
				}
			}
		}
	}
}

// escapes reports whether a closure is used other than by calling it.
func escapes(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Call:
			if r.Call.Value != v {
				return true
			}
		case *ssa.Defer:
			if r.Call.Value != v {
				return true
			}
		case *ssa.DebugRef:
		default:
			return true
		}
	}
	return false
}
