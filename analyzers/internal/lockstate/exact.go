package lockstate

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The exact policy of the namer, the lock flows' (package lockflow): a
// value is named by one path, with exact indices ("[%t3]", "[2]"),
// roots local to the function ("%t5" for a local variable or a call's
// result), and a φ-node as a root of its own that may name one of several
// objects (Weak). The summaries' policy (namer.go) collapses elements to
// "[*]", expands φ-nodes into their edges' paths and names nothing local:
// it says where a value may point, this one which lock a function's Lock
// and Unlock calls name, to pair them.

// An ExactPath names a lock (or any object) by its access path in one
// function: the root ("$0" for the first parameter, "$f1" for the second free
// variable of a closure, "@pkg.V" for a package-level variable, "%t3" for
// any other SSA value, such as a local variable or a call's result)
// followed by steps (".f" a field in place, "[i]" an element, "->" a load
// through a reference). Two paths with the same key name the same object
// as long as the values on the way do not change.
type ExactPath struct {
	Root string
	Rest string
	// Display is the path for people: "c.mu", "s.conns[i].mu".
	Display string
	// Class is the lock's class: the field of the type that holds it
	// ("net/http.Server.mu"), whatever the object; or the package-level
	// variable. It is empty for a lock that is a local value.
	Class string
	// Weak reports a root that may name one of several objects (a phi):
	// releasing it may release another lock of the same class.
	Weak bool
	// Values lists the SSA values the path depends on (the root, the
	// indices, the loaded references), to tell whether the path names the
	// same object on every iteration of a loop.
	Values []ssa.Value
}

// Key is the identity of the path within its function.
func (p ExactPath) Key() string { return p.Root + p.Rest }

// Local reports whether the path's root is a value of the function itself
// rather than a parameter, a free variable or a global: a caller cannot
// name it.
func (p ExactPath) Local() bool { return strings.HasPrefix(p.Root, "%") }

// Global reports whether the path is a package-level variable or a
// part of it in place: it names the same object in every function.
func (p ExactPath) Global() bool {
	return strings.HasPrefix(p.Root, "@") && !strings.Contains(p.Rest, "->")
}

// RootDisplay is the part of the path's display that names its root.
func (p ExactPath) RootDisplay() string {
	if i := strings.IndexAny(p.Display, ".["); i >= 0 {
		return p.Display[:i]
	}
	return p.Display
}

// Exact returns the path of v under the exact policy, or false when v has
// none (the path would go through a call or an arithmetic value).
func (r *Namer) Exact(v ssa.Value) (ExactPath, bool) {
	if p, ok := r.exactMemo[v]; ok {
		if p == nil {
			return ExactPath{}, false
		}
		return *p, true
	}
	if r.exactMemo == nil {
		r.exactMemo = map[ssa.Value]*ExactPath{}
	}
	r.exactMemo[v] = nil // cycles through phis have no name
	p, ok := r.exactName(v, 0)
	if ok {
		r.exactMemo[v] = &p
	}
	return p, ok
}

func (r *Namer) exactName(v ssa.Value, depth int) (ExactPath, bool) {
	if depth > 12 {
		return ExactPath{}, false
	}
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		root, _ := r.root(v)
		return ExactPath{Root: root, Display: v.Name(), Class: namedClass(v.Type()), Values: []ssa.Value{v}}, true
	case *ssa.Global:
		root, ok := r.root(v)
		return ExactPath{Root: root, Display: v.Name(), Class: globalClass(root)}, ok
	case *ssa.Alloc:
		if p := spilledParam(v); p != nil {
			// A value parameter spilled to memory so that its fields
			// can be addressed (a value receiver: func (v view) f() {
			// v.o.mu.Lock() }), and only read there: its fields are
			// the parameter's, as the summaries' policy names them.
			return r.exactSub(p, depth)
		}
		disp := v.Comment
		if disp == "" || strings.HasPrefix(disp, "complit") || strings.HasPrefix(disp, "new") || strings.HasPrefix(disp, "varargs") || strings.HasPrefix(disp, "slicelit") {
			disp = "the local value"
		}
		return ExactPath{Root: "%" + v.Name(), Display: disp, Values: []ssa.Value{v}}, true
	case *ssa.FieldAddr:
		return r.exactField(v.X, v.Field, depth)
	case *ssa.Field:
		return r.exactField(v.X, v.Field, depth)
	case *ssa.IndexAddr:
		return r.exactIndex(v.X, v.Index, depth)
	case *ssa.Index:
		return r.exactIndex(v.X, v.Index, depth)
	case *ssa.Lookup:
		// m[k]: the element of the map at k (a comma-ok lookup is a
		// tuple, named by its extraction).
		if v.CommaOk {
			return ExactPath{}, false
		}
		if _, ok := v.X.Type().Underlying().(*types.Map); !ok {
			return ExactPath{}, false
		}
		return r.exactIndex(v.X, v.Index, depth)
	case *ssa.UnOp:
		if v.Op.String() != "*" {
			return ExactPath{}, false
		}
		if p := CapturedParam(v.X); p != nil {
			// A parameter that closures capture lives in a cell; a
			// load of it is the parameter.
			return r.exactSub(p, depth)
		}
		if a, ok := v.X.(*ssa.Alloc); ok {
			if p := spilledParam(a); p != nil {
				// A load of a spilled value parameter is the
				// parameter.
				return r.exactSub(p, depth)
			}
		}
		x, ok := r.exactSub(v.X, depth)
		if !ok {
			return ExactPath{}, false
		}
		x.Rest += "->"
		x.Values = append(x.Values[:len(x.Values):len(x.Values)], v)
		if x.Class != "" && !strings.HasPrefix(x.Class, "@") {
			x.Class += "->"
		}
		return x, true
	case *ssa.MakeInterface:
		return r.exactSub(v.X, depth)
	case *ssa.ChangeType:
		return r.exactSub(v.X, depth)
	case *ssa.ChangeInterface:
		return r.exactSub(v.X, depth)
	case *ssa.TypeAssert:
		if v.CommaOk {
			return ExactPath{}, false
		}
		return r.exactSub(v.X, depth)
	case *ssa.Phi:
		return ExactPath{Root: "%" + v.Name(), Display: phiName(v), Class: namedClass(v.Type()), Weak: true, Values: []ssa.Value{v}}, true
	case *ssa.Call, *ssa.Extract:
		return ExactPath{Root: "%" + v.Name(), Display: "the value of " + v.Name(), Class: namedClass(v.Type()), Values: []ssa.Value{v}}, true
	}
	return ExactPath{}, false
}

// CapturedParam returns the parameter v holds when v is the cell of a
// parameter that closures capture and nothing assigns after its entry:
// stored once, by the function, and never by the closures.
func CapturedParam(v ssa.Value) *ssa.Parameter {
	cell, ok := v.(*ssa.Alloc)
	if !ok || !cell.Heap {
		return nil
	}
	var param *ssa.Parameter
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			p, ok := r.Val.(*ssa.Parameter)
			if !ok || param != nil || r.Addr != cell {
				return nil
			}
			param = p
		case *ssa.MakeClosure:
			fn, ok := r.Fn.(*ssa.Function)
			if !ok {
				return nil
			}
			for i, b := range r.Bindings {
				if b == cell && (i >= len(fn.FreeVars) || storedTo(fn.FreeVars[i])) {
					return nil
				}
			}
		}
	}
	return param
}

// storedTo reports whether a closure assigns the variable it captures
// as fv.
func storedTo(fv *ssa.FreeVar) bool {
	for _, r := range *fv.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == fv {
			return true
		}
	}
	return false
}

func (r *Namer) exactSub(v ssa.Value, depth int) (ExactPath, bool) {
	if p, ok := r.exactMemo[v]; ok && p != nil {
		return *p, true
	}
	return r.exactName(v, depth+1)
}

func (r *Namer) exactField(x ssa.Value, i int, depth int) (ExactPath, bool) {
	p, ok := r.exactSub(x, depth)
	if !ok {
		return ExactPath{}, false
	}
	st, ok := Deref(x.Type()).Underlying().(*types.Struct)
	if !ok {
		return ExactPath{}, false
	}
	f := st.Field(i)
	p.Rest += "." + f.Name()
	if p.Display != "" {
		p.Display += "." + f.Name()
	}
	owner := namedClass(x.Type())
	if owner == "" {
		owner = p.Class
	}
	if owner != "" {
		p.Class = owner + "." + f.Name()
	} else {
		p.Class = ""
	}
	if strings.HasPrefix(p.Root, "@") {
		p.Class = globalClass(p.Root) + p.Rest
	}
	p.Values = p.Values[:len(p.Values):len(p.Values)]
	return p, true
}

func (r *Namer) exactIndex(x, idx ssa.Value, depth int) (ExactPath, bool) {
	p, ok := r.exactSub(x, depth)
	if !ok {
		return ExactPath{}, false
	}
	var step string
	switch i := idx.(type) {
	case *ssa.Const:
		if i.Value == nil || i.Value.Kind() != constant.Int {
			return ExactPath{}, false
		}
		step = "[" + i.Value.ExactString() + "]"
	default:
		step = "[%" + idx.Name() + "]"
		p.Values = append(p.Values[:len(p.Values):len(p.Values)], idx)
		if _, isPhi := idx.(*ssa.Phi); isPhi {
			p.Weak = true
		}
	}
	p.Rest += step
	if p.Display != "" {
		p.Display += "[" + idxName(idx) + "]"
	}
	if p.Class != "" {
		p.Class += "[*]"
	}
	return p, true
}

func idxName(v ssa.Value) string {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil {
		return c.Value.ExactString()
	}
	if _, ok := v.(*ssa.Parameter); ok {
		return v.Name()
	}
	return "i"
}

func phiName(v *ssa.Phi) string {
	if v.Comment != "" {
		return v.Comment
	}
	return "a value"
}
