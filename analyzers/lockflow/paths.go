package lockflow

import (
	"go/constant"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A Path names a lock (or any object) by its access path in one function:
// the root ("$0" for the first parameter, "$f1" for the second free
// variable of a closure, "@pkg.V" for a package-level variable, "%t3" for
// any other SSA value, such as a local variable or a call's result)
// followed by steps (".f" a field in place, "[i]" an element, "->" a load
// through a reference). Two paths with the same key name the same object
// as long as the values on the way do not change.
type Path struct {
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
func (p Path) Key() string { return p.Root + p.Rest }

// Local reports whether the path's root is a value of the function itself
// rather than a parameter, a free variable or a global: a caller cannot
// name it.
func (p Path) Local() bool { return strings.HasPrefix(p.Root, "%") }

// Namer computes the paths of the values of one function.
type Namer struct {
	fn     *ssa.Function
	params map[*ssa.Parameter]int
	free   map[*ssa.FreeVar]int
	memo   map[ssa.Value]*Path
}

// NewNamer returns a Namer for fn.
func NewNamer(fn *ssa.Function) *Namer {
	n := &Namer{fn: fn, params: map[*ssa.Parameter]int{}, free: map[*ssa.FreeVar]int{}, memo: map[ssa.Value]*Path{}}
	for i, p := range fn.Params {
		n.params[p] = i
	}
	for i, fv := range fn.FreeVars {
		n.free[fv] = i
	}
	return n
}

// Name returns the path of v, or false when v has none (the path would
// go through a call or an arithmetic value).
func (n *Namer) Name(v ssa.Value) (Path, bool) {
	if p, ok := n.memo[v]; ok {
		if p == nil {
			return Path{}, false
		}
		return *p, true
	}
	n.memo[v] = nil // cycles through phis have no name
	p, ok := n.name(v, 0)
	if ok {
		n.memo[v] = &p
	}
	return p, ok
}

func (n *Namer) name(v ssa.Value, depth int) (Path, bool) {
	if depth > 12 {
		return Path{}, false
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		i := n.params[v]
		return Path{Root: "$" + strconv.Itoa(i), Display: v.Name(), Class: typeName(v.Type()), Values: []ssa.Value{v}}, true
	case *ssa.FreeVar:
		i := n.free[v]
		return Path{Root: "$f" + strconv.Itoa(i), Display: v.Name(), Class: typeName(v.Type()), Values: []ssa.Value{v}}, true
	case *ssa.Global:
		name := "@" + v.Pkg.Pkg.Path() + "." + v.Name()
		return Path{Root: name, Display: v.Name(), Class: name}, true
	case *ssa.Alloc:
		disp := v.Comment
		if disp == "" || strings.HasPrefix(disp, "complit") || strings.HasPrefix(disp, "new") || strings.HasPrefix(disp, "varargs") || strings.HasPrefix(disp, "slicelit") {
			disp = "the local value"
		}
		return Path{Root: "%" + v.Name(), Display: disp, Values: []ssa.Value{v}}, true
	case *ssa.FieldAddr:
		return n.field(v.X, v.Field, depth)
	case *ssa.Field:
		return n.field(v.X, v.Field, depth)
	case *ssa.IndexAddr:
		return n.index(v.X, v.Index, depth)
	case *ssa.Index:
		return n.index(v.X, v.Index, depth)
	case *ssa.Lookup:
		// m[k]: the element of the map at k (a comma-ok lookup is a
		// tuple, named by its extraction).
		if v.CommaOk {
			return Path{}, false
		}
		if _, ok := v.X.Type().Underlying().(*types.Map); !ok {
			return Path{}, false
		}
		return n.index(v.X, v.Index, depth)
	case *ssa.UnOp:
		if v.Op.String() != "*" {
			return Path{}, false
		}
		if p := CapturedParam(v.X); p != nil {
			// A parameter that closures capture lives in a cell; a
			// load of it is the parameter.
			return n.sub(p, depth)
		}
		x, ok := n.sub(v.X, depth)
		if !ok {
			return Path{}, false
		}
		x.Rest += "->"
		x.Values = append(x.Values[:len(x.Values):len(x.Values)], v)
		if x.Class != "" && !strings.HasPrefix(x.Class, "@") {
			x.Class += "->"
		}
		return x, true
	case *ssa.MakeInterface:
		return n.sub(v.X, depth)
	case *ssa.ChangeType:
		return n.sub(v.X, depth)
	case *ssa.ChangeInterface:
		return n.sub(v.X, depth)
	case *ssa.TypeAssert:
		if v.CommaOk {
			return Path{}, false
		}
		return n.sub(v.X, depth)
	case *ssa.Phi:
		return Path{Root: "%" + v.Name(), Display: phiName(v), Class: typeName(v.Type()), Weak: true, Values: []ssa.Value{v}}, true
	case *ssa.Call, *ssa.Extract:
		return Path{Root: "%" + v.Name(), Display: "the value of " + v.Name(), Class: typeName(v.Type()), Values: []ssa.Value{v}}, true
	}
	return Path{}, false
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

func (n *Namer) sub(v ssa.Value, depth int) (Path, bool) {
	if p, ok := n.memo[v]; ok && p != nil {
		return *p, true
	}
	return n.name(v, depth+1)
}

func (n *Namer) field(x ssa.Value, i int, depth int) (Path, bool) {
	p, ok := n.sub(x, depth)
	if !ok {
		return Path{}, false
	}
	st, ok := deref(x.Type()).Underlying().(*types.Struct)
	if !ok {
		return Path{}, false
	}
	f := st.Field(i)
	p.Rest += "." + f.Name()
	if p.Display != "" {
		p.Display += "." + f.Name()
	}
	owner := typeName(x.Type())
	if owner == "" {
		owner = p.Class
	}
	if owner != "" {
		p.Class = owner + "." + f.Name()
	} else {
		p.Class = ""
	}
	if strings.HasPrefix(p.Root, "@") {
		p.Class = p.Root + p.Rest
	}
	p.Values = p.Values[:len(p.Values):len(p.Values)]
	return p, true
}

func (n *Namer) index(x, idx ssa.Value, depth int) (Path, bool) {
	p, ok := n.sub(x, depth)
	if !ok {
		return Path{}, false
	}
	var step string
	switch i := idx.(type) {
	case *ssa.Const:
		if i.Value == nil || i.Value.Kind() != constant.Int {
			return Path{}, false
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

// typeName names the (pointed-to) named type of t, or "".
func typeName(t types.Type) string {
	t = types.Unalias(deref(t))
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path() + "." + n.Obj().Name()
	}
	return ""
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
