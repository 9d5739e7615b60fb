package summary

import (
	"go/token"
	"slices"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// The calls of function values a function is given (Summary.FuncCalls)
// let a caller see what a helper does with the function it passes: a
// helper that runs it in a goroutine
//
//	func (w *group) Wrap(cb func()) { w.Add(1); go func() { cb(); w.Done() }() }
//	func (s *Server) Start()        { s.wg.Wrap(func() { s.loop() }) }
//
// starts a goroutine running s.loop for Start, as go func() { s.loop() }()
// would: Start's summary has loop's accesses, flagged Goroutine, without
// Start's locks. The goroutine is the helper's (cb called in a go
// statement, or in a function a go statement runs) or the call's own
// (a go statement calling the helper). A function value that the helper
// calls in its caller's goroutine is not applied: it runs under the
// helper's locks at the call, which the summary does not record.

// addFuncCall records that the function calls the function value v, in
// a goroutine it starts when goroutine is set, when v is a parameter or
// a free variable of the function.
func (w *walker) addFuncCall(v ssa.Value, goroutine bool) {
	if !w.record {
		return
	}
	if root := funcRoot(w.fn, v); root != "" {
		c := FuncCall{Fn: root, Goroutine: goroutine}
		if !slices.Contains(w.sum.FuncCalls, c) {
			w.sum.FuncCalls = append(w.sum.FuncCalls, c)
		}
	}
}

// applyFuncCalls applies, at a call made how, the calls its callee makes
// of the function values args and bindings give it: a function known
// here that the callee calls in a goroutine (its own, or the one the
// call starts) runs as a goroutine the function starts; a parameter or
// free variable of the function that it passes on is a call of the
// function's own.
func (w *walker) applyFuncCalls(st *state, instr ssa.Instruction, calls []FuncCall, args, bindings []ssa.Value, how callKind) {
	for _, c := range calls {
		v := passedValue(c.Fn, args, bindings)
		if v == nil {
			continue
		}
		goroutine := c.Goroutine || how == callGo
		if knownFunc(v) {
			if goroutine {
				w.startFunc(st, instr, v)
			}
			continue
		}
		w.addFuncCall(v, goroutine)
	}
}

// startFunc applies the function v as a goroutine the function starts,
// unless v is being applied already: a function that starts itself
// again (work = func() { …; spawn(work) }) has its accesses once.
func (w *walker) startFunc(st *state, instr ssa.Instruction, v ssa.Value) {
	if slices.Contains(w.starting, v) {
		return
	}
	w.starting = append(w.starting, v)
	w.callValue(st, instr, v, callGo)
	w.starting = w.starting[:len(w.starting)-1]
}

// passedValue returns the value the caller gives for the callee's root
// ("$1": the argument, "$f0": the binding, or what its cell holds), or
// nil.
func passedValue(root string, args, bindings []ssa.Value) ssa.Value {
	if i := lockstate.ParamIndex(root); i >= 0 {
		if i < len(args) {
			return funcValue(args[i])
		}
		return nil
	}
	if len(root) < 3 || root[:2] != "$f" {
		return nil
	}
	i := lockstate.ParseIndex(root[2:])
	if i < 0 || i >= len(bindings) {
		return nil
	}
	if cell, ok := bindings[i].(*ssa.Alloc); ok {
		return funcValue(storedOnce(cell))
	}
	return funcValue(bindings[i])
}

// knownFunc reports whether v is a function whose body is at hand: a
// function, a function literal or a method value.
func knownFunc(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Function:
		return true
	case *ssa.MakeClosure:
		_, ok := v.Fn.(*ssa.Function)
		return ok
	}
	return false
}

// funcValue returns the function value v holds: v itself, or the value
// it converts (a named func type), or the value loaded from a local
// variable stored once; nil for none.
func funcValue(v ssa.Value) ssa.Value {
	for range 4 {
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
		case *ssa.UnOp:
			cell, ok := x.X.(*ssa.Alloc)
			if !ok || x.Op != token.MUL {
				return v
			}
			v = storedOnce(cell)
		default:
			return v
		}
		if v == nil {
			return nil
		}
	}
	return v
}

// funcRoot returns the root that names the function value v in fn: "$i"
// for its i-th parameter, "$fi" for its i-th free variable (bound by
// value, or the cell of a captured variable, loaded); "" for another
// value.
func funcRoot(fn *ssa.Function, v ssa.Value) string {
	v = funcValue(v)
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if _, ok := u.X.(*ssa.FreeVar); ok {
			v = u.X // a captured variable, loaded from its cell
		}
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		if i := slices.Index(fn.Params, v); i >= 0 {
			return "$" + strconv.Itoa(i)
		}
	case *ssa.FreeVar:
		if i := slices.Index(fn.FreeVars, v); i >= 0 {
			return "$f" + strconv.Itoa(i)
		}
	}
	return ""
}

// storedOnce returns the value stored in the local variable cell when it
// is stored exactly once and no closure that captures it assigns it;
// nil otherwise.
func storedOnce(cell *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, ref := range *cell.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != cell || val != nil {
				return nil
			}
			val = ref.Val
		case *ssa.MakeClosure:
			if assignsCaptured(ref, cell) {
				return nil
			}
		}
	}
	return val
}

// assignsCaptured reports whether the closure mc makes assigns the
// variable cell it captures.
func assignsCaptured(mc *ssa.MakeClosure, cell *ssa.Alloc) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return true
	}
	for i, b := range mc.Bindings {
		if b != cell || i >= len(fn.FreeVars) {
			continue
		}
		for _, ref := range *fn.FreeVars[i].Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == fn.FreeVars[i] {
				return true
			}
		}
	}
	return false
}
