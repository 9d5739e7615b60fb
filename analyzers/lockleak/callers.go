package lockleak

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/lockflow"
)

// A callIndex lists the static calls of the package's functions by
// callee. A function also used as a value (a method value, a function
// passed on), or a method of a name the package calls through an
// interface, has callers the index does not see: it is escaped.
type callIndex struct {
	funcs   []*ssa.Function
	calls   map[*ssa.Function][]*ssa.Call
	escaped map[*ssa.Function]bool
	// unlockers lists, by lock class, whether an exported function of
	// the package releases a lock of that class that its caller holds
	// (an Unlock method).
	unlockers map[string]bool
	// releasers lists, by lock class, whether a function of the package
	// releases a lock of that class that it never acquires.
	releasers map[string]bool
}

func (x *callIndex) index() {
	out := map[*ssa.Function][]*ssa.Call{}
	escaped := map[*ssa.Function]bool{}
	invoked := map[string]bool{} // method names called through interfaces
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok && c.Common().IsInvoke() {
					invoked[c.Common().Method.Name()] = true
				}
				var ops [8]*ssa.Value
				for i, op := range instr.Operands(ops[:0]) {
					if op == nil || *op == nil {
						continue
					}
					g, ok := (*op).(*ssa.Function)
					if !ok {
						if mc, ok := (*op).(*ssa.MakeClosure); ok {
							g, _ = mc.Fn.(*ssa.Function)
						}
					}
					if g == nil {
						continue
					}
					if call, ok := instr.(*ssa.Call); ok && i == 0 && !call.Call.IsInvoke() {
						if _, direct := (*op).(*ssa.Function); direct {
							out[g] = append(out[g], call)
							continue
						}
					}
					escaped[g] = true
				}
			}
		}
	}
	for _, fn := range x.funcs {
		if fn.Signature.Recv() != nil && invoked[fn.Name()] {
			escaped[fn] = true // it may be called through an interface
		}
	}
	x.calls, x.escaped = out, escaped
}

// unlocker reports whether an exported function of the package releases
// a lock of class cls held by its caller.
func (x *callIndex) unlocker(prog *lockflow.Program, cls string) bool {
	if x.unlockers == nil {
		x.unlockers = map[string]bool{}
		for _, fn := range x.funcs {
			if obj, ok := fn.Object().(*types.Func); !ok || !obj.Exported() {
				continue
			}
			f := prog.Flow(fn)
			if f == nil {
				continue
			}
			for _, c := range f.CallerReleases(false) {
				x.unlockers[c] = true
			}
		}
	}
	return x.unlockers[cls]
}

// releaser reports whether a function of the package, exported or not,
// releases a lock of class cls that it never acquires: it works on a
// lock acquired elsewhere and handed to it.
func (x *callIndex) releaser(prog *lockflow.Program, cls string) bool {
	if cls == "" {
		return false
	}
	if x.releasers == nil {
		x.releasers = map[string]bool{}
		for _, fn := range x.funcs {
			f := prog.Flow(fn)
			if f == nil || !f.Summarized() {
				continue
			}
			for _, c := range f.CallerReleases(true) {
				x.releasers[c] = true
			}
		}
	}
	return x.releasers[cls]
}

// callerMayRelease reports whether a caller of the function may release
// lock k after the call, whatever the result says: one in the package
// does, or the callers are not all known (a function value, an interface
// method, an exported function whose callers can name the lock or have
// it released by an exported function).
func (r *reporter) callerMayRelease(k string) bool {
	f := r.f
	if r.callers.escaped[f.Fn] || !f.Summarized() {
		return true
	}
	calls := r.callers.calls[f.Fn]
	if len(calls) == 0 {
		obj, ok := f.Fn.Object().(*types.Func)
		return !ok || obj.Exported() && (nameable(f.Path(k)) || r.callers.unlocker(f.Program(), f.Path(k).Class))
	}
	for _, call := range calls {
		if _, _, released, ok := afterCall(f, k, call); !ok || released {
			return true
		}
	}
	return false
}

// afterCall names lock k of f in the function that makes call, and
// reports whether some path after the call releases it there; ok is false
// when that function's flow, or the lock's name in it, is not known.
func afterCall(f *lockflow.Flow, k string, call *ssa.Call) (cf *lockflow.Flow, p lockstate.ExactPath, released, ok bool) {
	if cf = f.Program().Flow(call.Parent()); cf == nil {
		return nil, lockstate.ExactPath{}, false, false
	}
	if p, ok = cf.MapPath(f, k, call.Call.Args); !ok {
		return nil, lockstate.ExactPath{}, false, false
	}
	return cf, p, cf.ReleasedAfter(call, p.Key()), true
}

// refuted reports whether the function's callers show that it does not
// return holding lock k on purpose: it has callers in the package, and
// none of them releases k after the call or passes the call's result on
// to callers of its own that may.
func (r *reporter) refuted(k string) bool {
	return refuted(r.f, k, r.callers, 0)
}

func refuted(f *lockflow.Flow, k string, callers *callIndex, depth int) bool {
	if callers.escaped[f.Fn] || !f.Summarized() || depth > 3 {
		return false
	}
	if callers.releaser(f.Program(), f.Path(k).Class) {
		// Another function of the package releases a lock of this class
		// that it did not acquire (a Tx's Rollback releasing the lock
		// its DB's beginTx returned holding): the lock is handed over
		// by design.
		return false
	}
	calls := callers.calls[f.Fn]
	if len(calls) == 0 {
		// Callers outside the package, if exported: they must be
		// able to release the lock.
		obj, ok := f.Fn.Object().(*types.Func)
		return ok && obj.Exported() && !nameable(f.Path(k)) && !callers.unlocker(f.Program(), f.Path(k).Class)
	}
	for _, call := range calls {
		if call.Parent() == f.Fn {
			return false
		}
		cf, p, released, ok := afterCall(f, k, call)
		if !ok || released {
			return false
		}
		if returnsResult(call) && (p.Local() || !refuted(cf, p.Key(), callers, depth+1)) {
			return false // a wrapper, which its own callers may use
		}
	}
	return true
}

// nameable reports whether code of another package can name the lock at
// p to release it: its root is a parameter or an exported package
// variable, and every field on the way is exported.
func nameable(p lockstate.ExactPath) bool {
	switch {
	case strings.HasPrefix(p.Root, "@"):
		if i := strings.LastIndexByte(p.Root, '.'); i < 0 || !token.IsExported(p.Root[i+1:]) {
			return false
		}
	case !strings.HasPrefix(p.Root, "$"):
		return false
	}
	for _, step := range strings.Split(p.Rest, ".")[1:] {
		name := step
		if i := strings.IndexAny(step, "[-"); i >= 0 {
			name = step[:i]
		}
		if name != "" && !token.IsExported(name) {
			return false
		}
	}
	return true
}

// returnsResult reports whether the result of call (or one of its
// results) is returned by its function.
func returnsResult(call *ssa.Call) bool {
	vals := []ssa.Value{call}
	if refs := call.Referrers(); refs != nil {
		for _, ref := range *refs {
			if x, ok := ref.(*ssa.Extract); ok {
				vals = append(vals, x)
			}
		}
	}
	for _, v := range vals {
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			if _, ok := ref.(*ssa.Return); ok {
				return true
			}
		}
	}
	return false
}
