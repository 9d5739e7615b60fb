package unguarded

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/summary"
)

// Methods only constructors call.
//
// A method that code outside the package cannot call (an unexported
// method, or any method of an unexported type) and that every call in
// the package makes from a constructor runs while the constructor builds
// the object, before it is shared:
//
//	func New(n int) *Cache {
//		c := &Cache{}
//		for i := range c.buckets {
//			c.buckets[i].Init(n) // bucket.Init writes without b.mu
//		}
//		return c
//	}
//
// Such a method is not an entry point. A constructor is a function (not
// a method) of the package whose result is the method's type, a pointer
// to it, a type that holds one (in a field, an array or slice element,
// through a pointer, or as an interface the type implements, two levels
// deep), or such an interface; a call through an interface counts for
// the methods that implement it. A method used as a value is called from
// who knows where, and stays an entry point.

// ctorOnly returns the methods of the package that only constructors
// call, as above.
func ctorOnly(res *summary.Result) map[*ssa.Function]bool {
	calls := map[*ssa.Function][]*ssa.Function{} // method → the outermost functions calling it
	invokes := map[string][]invoke{}             // method name → the interface calls of it
	valued := map[*ssa.Function]bool{}           // used other than as a callee
	for _, fn := range res.SSA.SrcFuncs {
		outer := fn
		for outer.Parent() != nil {
			outer = outer.Parent()
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, isCall := instr.(ssa.CallInstruction)
				if isCall {
					c := call.Common()
					if c.IsInvoke() {
						invokes[c.Method.Name()] = append(invokes[c.Method.Name()], invoke{iface: c.Value.Type(), in: outer})
					} else if callee := c.StaticCallee(); callee != nil {
						calls[origin(callee)] = append(calls[origin(callee)], outer)
					}
				}
				var ops [8]*ssa.Value
				for i, op := range instr.Operands(ops[:0]) {
					if op == nil {
						continue
					}
					if isCall && i == 0 {
						continue // the callee itself
					}
					switch v := (*op).(type) {
					case *ssa.Function:
						valued[origin(v)] = true
					case *ssa.MakeClosure:
						if f, ok := v.Fn.(*ssa.Function); ok && f.Synthetic != "" {
							if m := boundMethod(f); m != nil {
								valued[m] = true
							}
						}
					}
				}
			}
		}
	}
	out := map[*ssa.Function]bool{}
	for _, fn := range res.SSA.SrcFuncs {
		obj := recvType(fn)
		if obj == nil || fn.Parent() != nil || valued[fn] || obj.Exported() && fn.Object() != nil && fn.Object().Exported() {
			continue
		}
		callers := calls[fn]
		recv := fn.Signature.Recv().Type()
		for _, iv := range invokes[fn.Name()] {
			if it, ok := iv.iface.Underlying().(*types.Interface); ok && types.Implements(recv, it) {
				callers = append(callers, iv.in)
			}
		}
		if len(callers) == 0 {
			continue
		}
		all := true
		for _, c := range callers {
			if !constructs(c, obj) {
				all = false
				break
			}
		}
		if all {
			out[fn] = true
		}
	}
	return out
}

// An invoke is a call through an interface, in a function.
type invoke struct {
	iface types.Type
	in    *ssa.Function
}

func origin(fn *ssa.Function) *ssa.Function {
	if o := fn.Origin(); o != nil {
		return o
	}
	return fn
}

// boundMethod returns the method a bound method value wraps.
func boundMethod(f *ssa.Function) *ssa.Function {
	obj, ok := f.Object().(*types.Func)
	if !ok {
		return nil
	}
	return f.Prog.FuncValue(obj)
}

// constructs reports whether fn is a function of obj's package (not a
// method) that returns a value of obj's type or one holding it.
func constructs(fn *ssa.Function, obj *types.TypeName) bool {
	sig := fn.Signature
	if sig.Recv() != nil || fn.Pkg == nil || fn.Pkg.Pkg != obj.Pkg() {
		return false
	}
	for i := range sig.Results().Len() {
		if holds(sig.Results().At(i).Type(), obj, 3) {
			return true
		}
	}
	return false
}

// holds reports whether a value of type t is, points to, or holds (in
// fields and elements, depth levels deep) a value of obj's type, or is an
// interface that obj's type implements.
func holds(t types.Type, obj *types.TypeName, depth int) bool {
	if depth == 0 {
		return false
	}
	named := types.NewPointer(obj.Type())
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if u.Origin().Obj() == obj {
			return true
		}
		if it, ok := u.Underlying().(*types.Interface); ok {
			return !it.Empty() && types.Implements(named, it)
		}
		return holds(u.Underlying(), obj, depth-1)
	case *types.Pointer:
		return holds(u.Elem(), obj, depth)
	case *types.Slice:
		return holds(u.Elem(), obj, depth)
	case *types.Array:
		return holds(u.Elem(), obj, depth)
	case *types.Struct:
		for i := range u.NumFields() {
			if holds(u.Field(i).Type(), obj, depth) {
				return true
			}
		}
	case *types.Interface:
		return !u.Empty() && types.Implements(named, u)
	}
	return false
}
