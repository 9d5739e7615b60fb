package lockstate

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A Namer names the SSA values of one function by access paths, under
// two policies: Paths, the summaries' (where a value may point, elements
// collapsed, nothing local), and Exact, the lock flows' (one path, exact
// indices, local roots; see exact.go). All the analyzers name locations
// with it, so that they never disagree on a path. memo holds the
// summaries' paths, exactMemo the lock flows'.
type Namer struct {
	fn        *ssa.Function
	params    map[*ssa.Parameter]int
	free      map[*ssa.FreeVar]int
	memo      map[ssa.Value][]Path
	exactMemo map[ssa.Value]*ExactPath
}

// NewNamer returns a namer for the values of fn.
func NewNamer(fn *ssa.Function) *Namer {
	r := &Namer{fn: fn, params: map[*ssa.Parameter]int{}, free: map[*ssa.FreeVar]int{}, memo: map[ssa.Value][]Path{}}
	for i, p := range fn.Params {
		r.params[p] = i
	}
	for i, fv := range fn.FreeVars {
		r.free[fv] = i
	}
	return r
}

const maxPaths = 4

// paths returns the access paths v may denote (nil when v is local or
// unknown).
func (r *Namer) Paths(v ssa.Value) []Path {
	if ps, ok := r.memo[v]; ok {
		return ps
	}
	r.memo[v] = nil // cycle guard (phis)
	ps := r.compute(v)
	if len(ps) > maxPaths {
		ps = ps[:maxPaths]
	}
	r.memo[v] = ps
	return ps
}

// root returns the root a parameter, a free variable or a package
// variable is under both policies: "$1", "$f0", "@pkg/path.V" (GlobalRoot).
func (r *Namer) root(v ssa.Value) (string, bool) {
	switch v := v.(type) {
	case *ssa.Parameter:
		return "$" + strconv.Itoa(r.params[v]), true
	case *ssa.FreeVar:
		return "$f" + strconv.Itoa(r.free[v]), true
	case *ssa.Global:
		if v.Pkg != nil {
			return GlobalRoot(v.Pkg.Pkg.Path(), v.Name()), true
		}
	}
	return "", false
}

func (r *Namer) compute(v ssa.Value) []Path {
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		root, _ := r.root(v)
		return []Path{{Str: root, Class: TypeClass(v.Type())}}
	case *ssa.Alloc:
		// A value parameter spilled to memory so that its fields can
		// be addressed (a value receiver: func (v view) f() { v.x… }),
		// and only read there: its fields are the parameter's.
		if p := spilledParam(v); p != nil {
			return r.Paths(p)
		}
	case *ssa.Global:
		if root, ok := r.root(v); ok {
			return []Path{{Str: root, Class: globalClass(root)[1:]}}
		}
	case *ssa.FieldAddr:
		name, class := FieldOf(v.X.Type(), v.Field)
		return mapPaths(r.Paths(v.X), func(p Path) Path {
			return Path{Str: p.Step("." + name), Class: class}
		})
	case *ssa.Field:
		name, class := FieldOf(v.X.Type(), v.Field)
		return mapPaths(r.Paths(v.X), func(p Path) Path {
			return Path{Str: p.Str + "." + name, Loaded: true, Class: class}
		})
	case *ssa.IndexAddr:
		return mapPaths(r.Paths(v.X), func(p Path) Path { return Path{Str: p.Step("[*]")} })
	case *ssa.Index:
		return mapPaths(r.Paths(v.X), func(p Path) Path { return Path{Str: p.Str + "[*]", Loaded: true} })
	case *ssa.Lookup:
		return mapPaths(r.Paths(v.X), func(p Path) Path { return Path{Str: p.Step("[*]"), Loaded: true} })
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return nil
		}
		if cell, ok := v.X.(*ssa.Alloc); ok {
			// A local variable holding a path (a captured receiver).
			return r.CellContents(cell)
		}
		return mapPaths(r.Paths(v.X), func(p Path) Path {
			return Path{Str: p.Location(), Loaded: true, Class: p.Class}
		})
	case *ssa.Slice:
		return r.Paths(v.X)
	case *ssa.ChangeType:
		return r.Paths(v.X)
	case *ssa.Convert:
		return r.Paths(v.X)
	case *ssa.MakeInterface:
		return r.Paths(v.X)
	case *ssa.ChangeInterface:
		return r.Paths(v.X)
	case *ssa.TypeAssert:
		if v.CommaOk || !assertable(v) {
			return nil
		}
		return r.Paths(v.X)
	case *ssa.SliceToArrayPointer:
		return r.Paths(v.X)
	case *ssa.Extract:
		if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 && assertable(ta) {
			return r.Paths(ta.X)
		}
		// The value of a range over a map (for _, c := range m): an
		// element, as m[k] is. The key is not: keys and elements would
		// share the one element step.
		if nx, ok := v.Tuple.(*ssa.Next); ok && !nx.IsString && v.Index == 2 {
			if rng, ok := nx.Iter.(*ssa.Range); ok {
				return mapPaths(r.Paths(rng.X), func(p Path) Path { return Path{Str: p.Step("[*]"), Loaded: true} })
			}
		}
	case *ssa.Phi:
		// All or nothing: a phi with an edge of unknown (or loop-carried)
		// origin may denote any object.
		var out []Path
		for _, e := range v.Edges {
			ps := r.Paths(e)
			if ps == nil {
				return nil
			}
			out = AppendPaths(out, ps...)
		}
		return out
	case *ssa.Call:
		// ssa:wrapnilchk(x, …) returns x.
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "ssa:wrapnilchk" {
			return r.Paths(v.Call.Args[0])
		}
	}
	return nil
}

// assertable reports whether the result of a type assertion may be the
// object its operand denotes: unless the operand is known to hold a value
// of another type. A value converted to an interface and asserted to
// another concrete type is not that value (the assertion fails), so a
// type switch over an interface does not merge the fields of its cases'
// types with those of the value's own.
func assertable(ta *ssa.TypeAssert) bool {
	if types.IsInterface(ta.AssertedType) {
		return true
	}
	t := concreteType(ta.X)
	return t == nil || types.Identical(t, ta.AssertedType)
}

// concreteType returns the type of the value an interface value v was
// made from in this function, nil when it is not known.
func concreteType(v ssa.Value) types.Type {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			return x.X.Type()
		case *ssa.ChangeInterface:
			v = x.X
		default:
			return nil
		}
	}
}

// CellContents returns the paths stored in a local variable that is only
// ever assigned values with paths (as a captured receiver is).
func (r *Namer) CellContents(cell *ssa.Alloc) []Path {
	var out []Path
	for _, ref := range *cell.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != cell {
			continue
		}
		ps := r.Paths(st.Val)
		if ps == nil {
			return nil
		}
		out = AppendPaths(out, ps...)
	}
	return out
}

// spilledParam returns the parameter that a local variable holds, when
// it is the parameter's spill (stored once, with the parameter's value)
// and is only read: its loads, and loads of its fields and elements.
func spilledParam(a *ssa.Alloc) *ssa.Parameter {
	var param *ssa.Parameter
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == a {
			p, ok := st.Val.(*ssa.Parameter)
			if !ok || param != nil {
				return nil
			}
			param = p
		}
	}
	if param == nil || !readOnly(a, 0) {
		return nil
	}
	return param
}

// readOnly reports whether the memory at address v is only read, apart
// from stores of the whole value at v itself (the spill, see
// spilledParam).
func readOnly(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != v || depth > 0 {
				return false
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return false
			}
		case *ssa.FieldAddr:
			if !readOnly(ref, depth+1) {
				return false
			}
		case *ssa.IndexAddr:
			if _, ok := Deref(ref.X.Type()).Underlying().(*types.Array); !ok || !readOnly(ref, depth+1) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// LocalStruct returns the allocation of a struct local to the function
// that v is (a value loaded from it: view{r}) or points to (&view{r: r}).
func LocalStruct(v ssa.Value) *ssa.Alloc {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return nil
	}
	if _, ok := Deref(a.Type()).Underlying().(*types.Struct); !ok {
		return nil
	}
	return a
}

// FieldContents returns the paths of the value held in field name of a
// struct local to the function (see LocalStruct), when the function
// stores exactly one value in that field (a composite literal's) and
// never the whole struct, and the value has paths: a wrapper such as
// view{r} or &cb{s: s} made to call a method or a function. It returns
// nil otherwise.
func (r *Namer) FieldContents(v ssa.Value, name string) []Path {
	a := LocalStruct(v)
	if a == nil {
		return nil
	}
	var stored ssa.Value
	for _, ref := range *a.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr == a {
				return nil // the whole struct assigned
			}
		case *ssa.FieldAddr:
			if n, _ := FieldOf(a.Type(), ref.Field); n != name {
				continue
			}
			for _, use := range *ref.Referrers() {
				switch use := use.(type) {
				case *ssa.Store:
					if use.Addr != ref || stored != nil {
						return nil // stored twice, or its address stored
					}
					stored = use.Val
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					return nil // the field's address passed on
				}
			}
		}
	}
	if stored == nil {
		return nil
	}
	return r.Paths(stored)
}

// throughField maps a callee's location tail (".x->mu", ".x") rooted at
// a local struct onto the value stored in its first field (see
// FieldContents): "$0.x->mu" with x holding the caller's $1 is
// "$1.mu". A location in the struct itself is local: it has none.
func (r *Namer) throughField(v ssa.Value, tail string, loaded bool) []Path {
	if !strings.HasPrefix(tail, ".") {
		return nil
	}
	n := stepLen(tail)
	return intoField(r.FieldContents(v, tail[1:n]), tail[n:], loaded)
}

// intoField maps rest, the steps after a field that holds a value with
// paths contents, onto those paths: "->mu" through a field holding $1
// is "$1.mu"; "" is the value itself when loaded. A location within the
// field itself has none.
func intoField(contents []Path, rest string, loaded bool) []Path {
	switch {
	case contents == nil:
		return nil
	case rest == "":
		if !loaded {
			return nil // the field's memory, in the caller's frame
		}
		return contents // the value held in the field
	case !strings.HasPrefix(rest, "->"):
		return nil // within the struct, in the caller's frame
	}
	rest = rest[2:]
	out := make([]Path, 0, len(contents))
	for _, p := range contents {
		if rest == "" {
			out = append(out, Path{Str: p.Location(), Loaded: loaded})
			continue
		}
		out = append(out, Path{Str: extend(p, rest), Loaded: loaded})
	}
	return out
}
