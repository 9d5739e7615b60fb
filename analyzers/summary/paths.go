package summary

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Paths.
//
// A location is written as an access path:
//
//	$0, $1, …     the function's parameters ($0 is the receiver of a method)
//	$f0, $f1, …   the free variables of a closure
//	@pkg.Name     a package-level variable
//
// followed by steps: ".f" selects field f in place, "[*]" any element of
// an array in place, and "->" goes through a reference (a pointer, slice,
// map, channel or interface value loaded from memory), so that
// "$0.buf->[*]" is an element of the slice held in the receiver's buf field
// and "$0.next->val" the val field of the node that next points to. A path
// ending in "->" is the whole object behind a reference. The root itself
// names the object its pointer points to, so "$0" is the whole receiver.
//
// Two locations are compatible (may overlap) when they are equal or one
// extends the other in place: "$0" and "$0.x" overlap (copying the
// receiver reads x); "$0.buf" and "$0.buf->[*]" do not (the slice header
// and its elements are distinct memory).

// A path is an SSA value expressed as an access path. Loaded reports
// whether the value was read from memory (a reference held in a field),
// as opposed to an address in hand (a parameter, &x.f): steps from a
// loaded value go through the reference.
type path struct {
	str    string
	loaded bool
	class  string // compatibility class of the location, for locks
}

// location returns the location that a load or store through the value
// (an address) accesses.
func (p path) location() string {
	if p.loaded {
		return p.str + "->"
	}
	return p.str
}

// step extends the address p with a field or element step ("." + name, or
// "[*]").
func (p path) step(s string) string {
	if p.loaded {
		return p.str + "->" + strings.TrimPrefix(s, ".")
	}
	return p.str + s
}

// Compatible reports whether locations a and b may overlap.
func Compatible(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if !strings.HasPrefix(b, a) {
		return false
	}
	if len(a) == len(b) || strings.HasSuffix(a, "->") {
		return true
	}
	c := b[len(a)]
	return c == '.' || c == '['
}

// Root returns the root of a location: "$0", "$f1", "@pkg.V".
func Root(loc string) string {
	i := strings.IndexAny(loc, ".[-")
	if loc != "" && loc[0] == '@' {
		// A global's name contains the package path, which may hold
		// dots: the root ends at the first step after the last slash.
		slash := strings.LastIndexByte(loc, '/')
		dot := strings.IndexByte(loc[slash+1:], '.') // the one before the name
		rest := loc[slash+1+dot+1:]
		j := strings.IndexAny(rest, ".[-")
		if j < 0 {
			return loc
		}
		return loc[:len(loc)-len(rest)+j]
	}
	if i < 0 {
		return loc
	}
	return loc[:i]
}

// GlobalPkg returns the package path of a location rooted at a package
// variable ("net/http" for "@net/http.DefaultClient.Transport"), "" for
// another location.
func GlobalPkg(loc string) string {
	if loc == "" || loc[0] != '@' {
		return ""
	}
	root := Root(loc)[1:]
	slash := strings.LastIndexByte(root, '/')
	dot := strings.IndexByte(root[slash+1:], '.')
	if dot < 0 {
		return root
	}
	return root[:slash+1+dot]
}

// ParamIndex returns i for a location rooted at parameter $i, or -1.
func ParamIndex(loc string) int {
	r := Root(loc)
	if len(r) < 2 || r[0] != '$' || r[1] == 'f' {
		return -1
	}
	i, err := strconv.Atoi(r[1:])
	if err != nil {
		return -1
	}
	return i
}

// Display renders a location for people, naming the roots with names[i]
// for parameter $i (e.g. "recv", "other").
func Display(loc string, names []string) string {
	root := Root(loc)
	rest := loc[len(root):]
	name := root
	if i := ParamIndex(loc); i >= 0 && i < len(names) {
		name = names[i]
	} else if strings.HasPrefix(root, "@") {
		name = root[1:]
		if slash := strings.LastIndexByte(name, '/'); slash >= 0 {
			name = name[slash+1:]
		}
	}
	rest = strings.ReplaceAll(rest, "->[", "[")
	rest = strings.ReplaceAll(rest, "->", ".")
	rest = strings.TrimSuffix(rest, ".")
	if rest == "" {
		return name
	}
	return name + rest
}

// resolver computes the paths of SSA values of one function, under both
// policies of the Namer: memo holds the summaries', exactMemo the lock
// flows' (exact.go).
type resolver struct {
	fn        *ssa.Function
	params    map[*ssa.Parameter]int
	free      map[*ssa.FreeVar]int
	memo      map[ssa.Value][]path
	exactMemo map[ssa.Value]*ExactPath
}

func newResolver(fn *ssa.Function) *resolver {
	r := &resolver{fn: fn, params: map[*ssa.Parameter]int{}, free: map[*ssa.FreeVar]int{}, memo: map[ssa.Value][]path{}}
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
func (r *resolver) paths(v ssa.Value) []path {
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
// variable is under both policies: "$1", "$f0", "@pkg/path.V".
func (r *resolver) root(v ssa.Value) (string, bool) {
	switch v := v.(type) {
	case *ssa.Parameter:
		return "$" + strconv.Itoa(r.params[v]), true
	case *ssa.FreeVar:
		return "$f" + strconv.Itoa(r.free[v]), true
	case *ssa.Global:
		if v.Pkg != nil {
			return "@" + v.Pkg.Pkg.Path() + "." + v.Name(), true
		}
	}
	return "", false
}

func (r *resolver) compute(v ssa.Value) []path {
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		root, _ := r.root(v)
		return []path{{str: root, class: TypeClass(v.Type())}}
	case *ssa.Alloc:
		// A value parameter spilled to memory so that its fields can
		// be addressed (a value receiver: func (v view) f() { v.x… }),
		// and only read there: its fields are the parameter's.
		if p := spilledParam(v); p != nil {
			return r.paths(p)
		}
	case *ssa.Global:
		if root, ok := r.root(v); ok {
			return []path{{str: root, class: root[1:]}}
		}
	case *ssa.FieldAddr:
		name, class := fieldOf(v.X.Type(), v.Field)
		return mapPaths(r.paths(v.X), func(p path) path {
			return path{str: p.step("." + name), class: class}
		})
	case *ssa.Field:
		name, class := fieldOf(v.X.Type(), v.Field)
		return mapPaths(r.paths(v.X), func(p path) path {
			return path{str: p.str + "." + name, loaded: true, class: class}
		})
	case *ssa.IndexAddr:
		return mapPaths(r.paths(v.X), func(p path) path { return path{str: p.step("[*]")} })
	case *ssa.Index:
		return mapPaths(r.paths(v.X), func(p path) path { return path{str: p.str + "[*]", loaded: true} })
	case *ssa.Lookup:
		return mapPaths(r.paths(v.X), func(p path) path { return path{str: p.step("[*]"), loaded: true} })
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return nil
		}
		if cell, ok := v.X.(*ssa.Alloc); ok {
			// A local variable holding a path (a captured receiver).
			return r.cellContents(cell)
		}
		return mapPaths(r.paths(v.X), func(p path) path {
			return path{str: p.location(), loaded: true, class: p.class}
		})
	case *ssa.Slice:
		return r.paths(v.X)
	case *ssa.ChangeType:
		return r.paths(v.X)
	case *ssa.Convert:
		return r.paths(v.X)
	case *ssa.MakeInterface:
		return r.paths(v.X)
	case *ssa.ChangeInterface:
		return r.paths(v.X)
	case *ssa.TypeAssert:
		if v.CommaOk || !assertable(v) {
			return nil
		}
		return r.paths(v.X)
	case *ssa.SliceToArrayPointer:
		return r.paths(v.X)
	case *ssa.Extract:
		if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 && assertable(ta) {
			return r.paths(ta.X)
		}
		// The value of a range over a map (for _, c := range m): an
		// element, as m[k] is. The key is not: keys and elements would
		// share the one element step.
		if nx, ok := v.Tuple.(*ssa.Next); ok && !nx.IsString && v.Index == 2 {
			if rng, ok := nx.Iter.(*ssa.Range); ok {
				return mapPaths(r.paths(rng.X), func(p path) path { return path{str: p.step("[*]"), loaded: true} })
			}
		}
	case *ssa.Phi:
		// All or nothing: a phi with an edge of unknown (or loop-carried)
		// origin may denote any object.
		var out []path
		for _, e := range v.Edges {
			ps := r.paths(e)
			if ps == nil {
				return nil
			}
			out = appendPaths(out, ps...)
		}
		return out
	case *ssa.Call:
		// ssa:wrapnilchk(x, …) returns x.
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "ssa:wrapnilchk" {
			return r.paths(v.Call.Args[0])
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

// cellContents returns the paths stored in a local variable that is only
// ever assigned values with paths (as a captured receiver is).
func (r *resolver) cellContents(cell *ssa.Alloc) []path {
	var out []path
	for _, ref := range *cell.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != cell {
			continue
		}
		ps := r.paths(st.Val)
		if ps == nil {
			return nil
		}
		out = appendPaths(out, ps...)
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
			if _, ok := deref(ref.X.Type()).Underlying().(*types.Array); !ok || !readOnly(ref, depth+1) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// localStruct returns the allocation of a struct local to the function
// that v is (a value loaded from it: view{r}) or points to (&view{r: r}).
func localStruct(v ssa.Value) *ssa.Alloc {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return nil
	}
	if _, ok := deref(a.Type()).Underlying().(*types.Struct); !ok {
		return nil
	}
	return a
}

// fieldContents returns the paths of the value held in field name of a
// struct local to the function (see localStruct), when the function
// stores exactly one value in that field (a composite literal's) and
// never the whole struct, and the value has paths: a wrapper such as
// view{r} or &cb{s: s} made to call a method or a function. It returns
// nil otherwise.
func (r *resolver) fieldContents(v ssa.Value, name string) []path {
	a := localStruct(v)
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
			if n, _ := fieldOf(a.Type(), ref.Field); n != name {
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
	return r.paths(stored)
}

// throughField maps a callee's location tail (".x->mu", ".x") rooted at
// a local struct onto the value stored in its first field (see
// fieldContents): "$0.x->mu" with x holding the caller's $1 is
// "$1.mu". A location in the struct itself is local: it has none.
func (r *resolver) throughField(v ssa.Value, tail string, loaded bool) []path {
	if !strings.HasPrefix(tail, ".") {
		return nil
	}
	n := stepLen(tail)
	return intoField(r.fieldContents(v, tail[1:n]), tail[n:], loaded)
}

// intoField maps rest, the steps after a field that holds a value with
// paths contents, onto those paths: "->mu" through a field holding $1
// is "$1.mu"; "" is the value itself when loaded. A location within the
// field itself has none.
func intoField(contents []path, rest string, loaded bool) []path {
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
	out := make([]path, 0, len(contents))
	for _, p := range contents {
		if rest == "" {
			out = append(out, path{str: p.location(), loaded: loaded})
			continue
		}
		out = append(out, path{str: extend(p, rest), loaded: loaded})
	}
	return out
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func mapPaths(ps []path, f func(path) path) []path {
	if len(ps) == 0 {
		return nil
	}
	out := make([]path, len(ps))
	for i, p := range ps {
		out[i] = f(p)
	}
	return out
}

func appendPaths(out []path, ps ...path) []path {
next:
	for _, p := range ps {
		for _, q := range out {
			if q.str == p.str && q.loaded == p.loaded {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

// fieldOf returns the name of field i of the struct t (or *t) points to,
// and its class "pkg.Type.field".
func fieldOf(t types.Type, i int) (name, class string) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return "?", ""
	}
	name = st.Field(i).Name()
	return name, TypeClass(t) + "." + name
}

// TypeClass names a type for lock compatibility and for comparing types
// under test: its origin's qualified name ("pkg/path.T"), pointers removed.
func TypeClass(t types.Type) string {
	for {
		p, ok := t.(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		n = n.Origin()
		if n.Obj().Pkg() != nil {
			return n.Obj().Pkg().Path() + "." + n.Obj().Name()
		}
		return n.Obj().Name()
	}
	return types.TypeString(t, nil)
}
