package driver

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// clockReads are the functions of package time that read the clock.
var clockReads = map[string]bool{"Now": true, "Since": true, "Until": true}

// clockMethods returns the methods of type typ in pkg (its method set,
// promoted methods included) whose results may depend on the clock:
// they call time.Now, time.Since or time.Until, directly or through the
// package's functions and methods they call (clockFuncs). What such a
// method returns after a test (the tokens of a rate limiter, whether an
// entry with a TTL is still there) depends on when it is called, which
// concurrency and the sequential runs' pauses change: the
// linearizability oracle does not observe the state through it.
func clockMethods(pkg *packages.Package, typ string) map[string]bool {
	return methodsIn(pkg, typ, clockFuncs(pkg))
}

// clockFuncs returns the functions and methods of pkg that read the
// clock, directly or through the package's functions they call.
func clockFuncs(pkg *packages.Package) map[*types.Func]bool {
	reads := map[*types.Func]bool{}
	if pkg.TypesInfo == nil || pkg.Types == nil {
		return reads
	}
	calls := map[*types.Func][]*types.Func{} // function → the package's functions it calls
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				var id *ast.Ident
				switch x := n.(type) {
				case *ast.SelectorExpr:
					id = x.Sel
				case *ast.Ident:
					id = x
				default:
					return true
				}
				callee, ok := pkg.TypesInfo.Uses[id].(*types.Func)
				if !ok || callee.Pkg() == nil {
					return true
				}
				switch {
				case callee.Pkg().Path() == "time" && clockReads[callee.Name()]:
					reads[fn] = true
				case callee.Pkg() == pkg.Types:
					calls[fn] = append(calls[fn], callee.Origin())
				}
				return true
			})
		}
	}
	// Propagate to the callers, to a fixed point.
	for changed := true; changed; {
		changed = false
		for fn, cs := range calls {
			if reads[fn] {
				continue
			}
			for _, c := range cs {
				if reads[c] {
					reads[fn], changed = true, true
					break
				}
			}
		}
	}
	return reads
}

// methodsIn returns the names of the methods of type typ in pkg (its
// method set, promoted methods included) that funcs holds.
func methodsIn(pkg *packages.Package, typ string, funcs map[*types.Func]bool) map[string]bool {
	tn, ok := pkg.Types.Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		return nil
	}
	out := map[string]bool{}
	mset := types.NewMethodSet(types.NewPointer(tn.Type()))
	for i := range mset.Len() {
		if fn, ok := mset.At(i).Obj().(*types.Func); ok && funcs[fn.Origin()] {
			out[fn.Name()] = true
		}
	}
	return out
}
