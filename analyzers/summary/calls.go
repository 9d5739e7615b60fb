package summary

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A callKind is how a callee runs: in the caller's goroutine, in a new
// one, or as a sync.Once's initialisation.
type callKind int

const (
	callNormal callKind = iota
	callGo              // the callee runs in a new goroutine
	callOnce            // the callee is a sync.Once's initialisation
)

// call applies the effect of a call that makes no lock operation (the
// engine applies those, see lockstate.LockCall) to the state.
//
// The model, in order:
//   - sync and sync/atomic primitives are modelled (atomic and sync.Map
//     accesses, the functions that sync.Once and sync.WaitGroup run);
//   - a call whose callee is known applies the callee's summary, computed
//     from its body in this package or imported as a fact from another,
//     mapped onto the caller's locations;
//   - any other call through an interface or a function value is unknown
//     code: following DepCon, it counts as a write (flagged Indirect) of
//     every location passed to it by reference, the receiver included.
//
// A goroutine started by the function does not hold the caller's locks.
func (w *walker) call(st *state, instr ssa.Instruction, c *ssa.CallCommon, how callKind) {
	if b, ok := c.Value.(*ssa.Builtin); ok {
		w.builtin(st, instr, b.Name(), c.Args)
		return
	}
	callee := c.StaticCallee()
	if c.IsInvoke() {
		args := append([]ssa.Value{c.Value}, c.Args...)
		if !w.dynamicCall(st, instr, args, how) {
			w.unknown(st, instr, args)
		}
		return
	}
	if callee == nil {
		w.addFuncCall(c.Value, how == callGo)
		if !w.dynamicCall(st, instr, c.Args, how) {
			w.unknown(st, instr, c.Args)
		}
		return
	}
	if w.modelled(st, instr, callee, c, how) {
		return
	}
	sum := w.b.summary(callee)
	if sum == nil {
		return
	}
	if spec, ok := w.b.specialized(callee, c.Args); ok {
		if spec == nil {
			return // a recursive call, in the first round
		}
		sum = spec
	}
	var bindings []ssa.Value
	if mc, ok := c.Value.(*ssa.MakeClosure); ok {
		bindings = mc.Bindings
	}
	via := callee.Name()
	if origin(callee) == w.fn {
		// The function calls itself: say so in messages.
		via += ", a recursive call"
	}
	w.apply(st, instr, callee, sum, c.Args, bindings, how, via, true)
}

// maxDynamic bounds the callees of a dynamic call that are followed.
const maxDynamic = 8

// dynamicCall applies the summaries of the possible callees of a call
// through an interface or a function value, when the builder resolves
// dynamic calls (whole-program how) to at most maxDynamic callees. It
// reports false when the call stays unknown code.
func (w *walker) dynamicCall(st *state, instr ssa.Instruction, args []ssa.Value, how callKind) bool {
	ci, ok := instr.(ssa.CallInstruction)
	if w.b.dynamic == nil || !ok {
		return false
	}
	callees := w.b.dynamic(ci)
	if len(callees) == 0 || len(callees) > maxDynamic {
		return false
	}
	for _, callee := range callees {
		if sum := w.b.summary(callee); sum != nil {
			// Only a sole callee's net lock effects are certain.
			w.apply(st, instr, callee, sum, args, nil, how, callee.Name(), len(callees) == 1)
		}
	}
	return true
}

// modelled handles the calls into sync and sync/atomic.
func (w *walker) modelled(st *state, instr ssa.Instruction, callee *ssa.Function, c *ssa.CallCommon, how callKind) bool {
	name := lockstate.SyncMethod(callee)
	if name == "" {
		return false
	}
	obj := callee.Object().(*types.Func)
	recv := ""
	if sig := obj.Signature(); sig.Recv() != nil {
		recv = lockstate.TypeClass(sig.Recv().Type())
	}
	switch recv {
	case "sync.Mutex", "sync.RWMutex":
		return true // lock operations are the engine's (LockCall)
	case "sync.Once":
		if obj.Name() == "Do" && len(c.Args) == 2 {
			// Do reads the Once's state (synchronised): a plain
			// write of the Once (a reset) conflicts with it.
			w.atomicAccess(st, instr, c.Args[0], false, Atomic, how)
			if how == callNormal {
				how = callOnce
			}
			w.callValue(st, instr, c.Args[1], how)
		}
		return true
	case "sync.WaitGroup":
		if obj.Name() == "Go" && len(c.Args) == 2 {
			w.callValue(st, instr, c.Args[1], callGo)
		}
		if obj.Name() == "Done" && how == callNormal {
			signalHandoff(st, w.r.Paths(c.Args[0]))
		}
		return true
	case "sync.Map":
		write := true
		switch obj.Name() {
		case "Load", "Range":
			write = false
		}
		w.atomicAccess(st, instr, c.Args[0], write, SyncMap, how)
		if obj.Name() == "Range" && len(c.Args) == 2 {
			w.callValue(st, instr, c.Args[1], how)
		}
		return true
	case "":
		if obj.Pkg().Path() == "sync/atomic" && len(c.Args) > 0 {
			// atomic.AddInt64(&x, 1) and friends.
			w.atomicAccess(st, instr, c.Args[0], !strings.HasPrefix(obj.Name(), "Load"), Atomic, how)
		}
		return true
	}
	if obj.Pkg().Path() == "sync/atomic" {
		// Methods of atomic.Int64, atomic.Value, atomic.Pointer[T], …
		w.atomicAccess(st, instr, c.Args[0], obj.Name() != "Load", Atomic, how)
		return true
	}
	return true // other sync types: no shared effect
}

func (w *walker) atomicAccess(st *state, instr ssa.Instruction, addr ssa.Value, write bool, flags Flags, how callKind) {
	if how == callGo {
		flags |= Goroutine
	}
	w.accessAll(st, w.r.Paths(addr), location, write, flags, instr)
}

// callValue applies a call of the function value f (sync.Once.Do(f)):
// the summary of its body, or, when f is a function value the function
// is given, a FuncCall of the function's own.
func (w *walker) callValue(st *state, instr ssa.Instruction, f ssa.Value, how callKind) {
	var bindings []ssa.Value
	var callee *ssa.Function
	switch f := f.(type) {
	case *ssa.Function:
		callee = f
	case *ssa.MakeClosure:
		callee, bindings = f.Fn.(*ssa.Function), f.Bindings
	}
	if callee == nil {
		if how != callOnce {
			w.addFuncCall(f, how == callGo)
		}
		return
	}
	if sum := w.b.summary(callee); sum != nil {
		w.apply(st, instr, callee, sum, nil, bindings, how, callee.Name(), true)
	}
}

// unknown models a call of unknown code.
func (w *walker) unknown(st *state, instr ssa.Instruction, args []ssa.Value) {
	for _, a := range args {
		if !isReference(a.Type()) || isCell(a) {
			continue
		}
		w.accessAll(st, w.r.Paths(a), location, true, Indirect, instr)
	}
}

// isReference reports whether values of t refer to other memory.
func isReference(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Interface, *types.Signature:
		return true
	}
	return false
}

func (w *walker) builtin(st *state, instr ssa.Instruction, name string, args []ssa.Value) {
	elems := func(v ssa.Value, write bool, flags Flags) {
		w.accessAll(st, w.r.Paths(v), elements, write, flags, instr)
	}
	switch name {
	case "append":
		elems(args[0], true, 0)
		if len(args) > 1 {
			if _, ok := args[1].Type().Underlying().(*types.Slice); ok {
				elems(args[1], false, 0)
			}
		}
	case "copy":
		elems(args[0], true, 0)
		elems(args[1], false, 0)
	case "delete":
		elems(args[0], true, Map)
	case "clear":
		flags := Flags(0)
		if _, ok := args[0].Type().Underlying().(*types.Map); ok {
			flags = Map
		}
		elems(args[0], true, flags)
	case "close":
		w.accessAll(st, w.r.Paths(args[0]), location, true, Chan|Close, instr)
	}
}
