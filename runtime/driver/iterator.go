package driver

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/depcon/depcon/runtime/load"
)

// isIterator reports whether the type name of pkg is an iterator (like a
// bufio.Scanner, an sql.Rows or a cursor): a method Next, SetNext or
// HasNext without parameters returns a bool, or returns an element (a
// pointer, an interface, a struct, alone or with a bool or an error), or
// the type also has an accessor of the current element (Value, Item,
// Key, Current, Entry, Record, Row, Scan). An iterator has one consumer
// at a time; two goroutines advancing one are misusing it, whatever lock
// it holds. A Next returning a number alone (a sequence, an ID source)
// is no iterator, nor is a type whose Next waits for what another of its
// methods gives, unless the type has an accessor (see signalledWaits).
func isIterator(pkg *types.Package, name string, waits map[string]bool) bool {
	tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return false
	}
	mset := types.NewMethodSet(types.NewPointer(tn.Type()))
	accessor := false
	for _, m := range []string{"Value", "Item", "Key", "Current", "Entry", "Record", "Row", "Scan"} {
		accessor = accessor || mset.Lookup(pkg, m) != nil
	}
	if waits[name] && !accessor {
		return false
	}
	for _, m := range []string{"Next", "SetNext", "HasNext"} {
		sel := mset.Lookup(pkg, m)
		if sel == nil {
			continue
		}
		sig := sel.Obj().Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() == 0 || sig.Results().Len() > 2 {
			continue
		}
		res := sig.Results()
		if res.Len() == 1 && types.Identical(res.At(0).Type(), types.Typ[types.Bool]) || accessor || isElement(res) {
			return true
		}
	}
	return false
}

// isElement reports whether the results of a Next are an element: a
// pointer, an interface or a struct, alone or with a bool or an error.
func isElement(res *types.Tuple) bool {
	switch res.At(0).Type().Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Struct:
	default:
		return false
	}
	if res.Len() == 1 {
		return true
	}
	second := res.At(1).Type()
	return types.Identical(second, types.Typ[types.Bool]) || types.Identical(second, types.Universe.Lookup("error").Type())
}

// signalledWaits returns the types of files whose Next, SetNext or
// HasNext waits for an event that another of their methods gives: it
// calls Wait on a sync.Cond field that another method Signals or
// Broadcasts, or receives from a channel field that another method
// sends on or closes. Such a Next (a throttle's, a latch's, a blocking
// queue's) waits for the next trigger from another goroutine: the
// type's methods are meant to be called from several goroutines. Only
// the methods' own bodies are read, not those of their callees.
func signalledWaits(files []*ast.File, info *types.Info) map[string]bool {
	if info == nil {
		return nil
	}
	next := map[[2]string]bool{}   // {type, field} its Next waits on
	others := map[[2]string]bool{} // {type, field} its other methods signal
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 || fd.Body == nil {
				continue
			}
			typ, recv := load.ReceiverName(fd.Recv.List[0].Type), info.Defs[fd.Recv.List[0].Names[0]]
			if typ == "" || recv == nil {
				continue
			}
			waits, signals := fieldWaits(fd.Body, recv, info)
			into, fields := others, signals
			switch fd.Name.Name {
			case "Next", "SetNext", "HasNext":
				into, fields = next, waits
			}
			for field := range fields {
				into[[2]string{typ, field}] = true
			}
		}
	}
	out := map[string]bool{}
	for k := range next {
		if others[k] {
			out[k[0]] = true
		}
	}
	return out
}

// fieldWaits returns the fields of recv that body waits on (Wait on a
// sync.Cond, a receive from a channel: "cond", "chan ch") and those it
// signals (Signal or Broadcast, a send or a close).
func fieldWaits(body *ast.BlockStmt, recv types.Object, info *types.Info) (waits, signals map[string]bool) {
	waits, signals = map[string]bool{}, map[string]bool{}
	// field returns the name of e when it is a field of recv ("" if not).
	field := func(e ast.Expr) string {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || info.Uses[id] != recv {
			return ""
		}
		return sel.Sel.Name
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if f := field(n.X); f != "" {
					waits["chan "+f] = true
				}
			}
		case *ast.RangeStmt:
			if f := field(n.X); f != "" && isChan(info.TypeOf(n.X)) {
				waits["chan "+f] = true
			}
		case *ast.SendStmt:
			if f := field(n.Chan); f != "" {
				signals["chan "+f] = true
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 {
				if _, ok := info.Uses[id].(*types.Builtin); ok {
					if f := field(n.Args[0]); f != "" {
						signals["chan "+f] = true
					}
				}
			}
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok || !isCond(info.TypeOf(sel.X)) {
				return true
			}
			f := field(sel.X)
			if f == "" {
				return true
			}
			switch sel.Sel.Name {
			case "Wait":
				waits[f] = true
			case "Signal", "Broadcast":
				signals[f] = true
			}
		}
		return true
	})
	return waits, signals
}

// isChan reports whether t is a channel type.
func isChan(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// isCond reports whether t is a sync.Cond or a pointer to one.
func isCond(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Cond"
}
