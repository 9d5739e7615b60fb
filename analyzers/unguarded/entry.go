package unguarded

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// A typeEntries lists the entry points of a type: the methods whose
// accesses may run concurrently with each other.
type typeEntries struct {
	obj     *types.TypeName
	methods []*summary.Method
	// started marks the unexported methods that are entry points because
	// a goroutine of the package runs them.
	started map[*summary.Method]bool
}

// entries returns the entry points of the package's types, sorted by type
// name: the exported methods of *T (but those only constructors call:
// see ctorOnly), and the methods that a go statement
// (or sync.WaitGroup.Go) of the package starts, directly or from a
// function literal that takes no lock before calling them. A go statement
// in a function that waits for a WaitGroup (fork-join) does not count:
// the goroutines it starts run within its caller's critical sections.
func entries(res *summary.Result) []*typeEntries {
	byObj := map[*types.TypeName]*typeEntries{}
	var out []*typeEntries
	get := func(obj *types.TypeName) *typeEntries {
		t := byObj[obj]
		if t == nil {
			t = &typeEntries{obj: obj, started: map[*summary.Method]bool{}}
			byObj[obj] = t
			out = append(out, t)
		}
		return t
	}
	have := map[*ssa.Function]bool{}
	init := ctorOnly(res)
	for _, t := range res.Types {
		te := get(t.Obj)
		for _, m := range t.Methods {
			if m.Summary == nil || init[m.Func] {
				continue
			}
			te.methods = append(te.methods, m)
			have[m.Func] = true
		}
	}
	for _, fn := range startedMethods(res) {
		if have[fn] {
			continue
		}
		have[fn] = true
		obj := recvType(fn)
		if obj == nil || obj.Pkg() != res.SSA.Pkg.Pkg {
			continue
		}
		sum := res.Of(fn)
		if sum == nil {
			continue
		}
		te := get(obj)
		m := &summary.Method{Name: fn.Name(), Func: fn, Summary: sum, Params: summary.ParamNames(fn)}
		te.methods = append(te.methods, m)
		te.started[m] = true
	}
	sort.Slice(out, func(i, j int) bool { return out[i].obj.Name() < out[j].obj.Name() })
	return out
}

// isEntry reports whether fn is one of the type's entry points.
func (t *typeEntries) isEntry(fn *ssa.Function) bool {
	for _, m := range t.methods {
		if m.Func == fn {
			return true
		}
	}
	return false
}

// recvType returns the named type of a method's receiver.
func recvType(fn *ssa.Function) *types.TypeName {
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// startedMethods returns the unexported methods of the package that a
// goroutine started in the package runs.
func startedMethods(res *summary.Result) []*ssa.Function {
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	add := func(fn *ssa.Function) {
		if fn == nil || seen[fn] || fn.Pkg != res.SSA.Pkg {
			return
		}
		seen[fn] = true
		out = append(out, fn)
	}
	for _, fn := range res.SSA.SrcFuncs {
		if joins(outermost(fn)) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var target ssa.Value
				switch in := instr.(type) {
				case *ssa.Go:
					if !in.Call.IsInvoke() {
						target = in.Call.Value
					}
				case *ssa.Call:
					if name := lockstate.SyncMethod(in.Call.StaticCallee()); name == "(*sync.WaitGroup).Go" && len(in.Call.Args) == 2 {
						target = in.Call.Args[1]
					}
				}
				if target == nil {
					continue
				}
				if m := methodOf(target); m != nil {
					add(m)
					continue
				}
				if lit := literal(target); lit != nil {
					for _, m := range calledUnlocked(res, lit) {
						add(m)
					}
				}
			}
		}
	}
	return out
}

// methodOf returns the declared method that calling v runs: a method
// (go t.loop()) or a bound method value (wg.Go(t.loop)).
func methodOf(v ssa.Value) *ssa.Function {
	var fn *ssa.Function
	switch v := v.(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn == nil {
		return nil
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Signature().Recv() == nil {
		return nil
	}
	if fn.Synthetic != "" {
		fn = fn.Prog.FuncValue(obj)
	}
	if fn == nil || fn.Blocks == nil {
		return nil
	}
	return fn
}

// literal returns the function literal v denotes, if any.
func literal(v ssa.Value) *ssa.Function {
	var fn *ssa.Function
	switch v := v.(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn == nil || fn.Parent() == nil {
		return nil
	}
	return fn
}

// calledUnlocked returns the methods a function literal calls, when it
// acquires no lock itself and releases none its starter handed over (a
// method it calls holding a lock is a helper of that critical section,
// not an entry point).
func calledUnlocked(res *summary.Result, lit *ssa.Function) []*ssa.Function {
	if sum := res.Of(lit); sum != nil {
		if len(sum.Released) > 0 {
			return nil // it releases a lock its starter handed over: it runs in that critical section
		}
		for _, a := range sum.Acquires {
			if !a.Goroutine {
				return nil
			}
		}
	}
	var out []*ssa.Function
	for _, b := range lit.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() {
				continue
			}
			if m := methodOf(call.Call.Value); m != nil {
				out = append(out, m)
			}
		}
	}
	return out
}

// outermost returns the function a function literal is declared in.
func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// joins reports whether fn, or a function literal in it, waits for a
// sync.WaitGroup or calls another Wait method (an errgroup's).
func joins(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			c := call.Common()
			if c.IsInvoke() {
				if c.Method.Name() == "Wait" {
					return true
				}
				continue
			}
			if callee := c.StaticCallee(); callee != nil && callee.Signature.Recv() != nil && callee.Name() == "Wait" {
				return true
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if joins(anon) {
			return true
		}
	}
	return false
}
