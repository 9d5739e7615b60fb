package heldcalls

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/summary"
)

// Paths are written as summary's access paths ("$0.mu", "$1.b->mu",
// "@pkg.mu"), so that a lock held here compares with a lock of a callee's
// summary mapped onto this function's values. The rules follow the
// summary analyzer's.

// A path is an SSA value as an access path; loaded reports whether the
// value was read from memory (steps from it go through the reference).
type path struct {
	str    string
	loaded bool
	class  string
}

func (p path) location() string {
	if p.loaded {
		return p.str + "->"
	}
	return p.str
}

func (p path) step(s string) string {
	if p.loaded {
		return p.str + "->" + strings.TrimPrefix(s, ".")
	}
	return p.str + s
}

type resolver struct {
	params map[*ssa.Parameter]int
	free   map[*ssa.FreeVar]int
	memo   map[ssa.Value][]path
}

func newResolver(fn *ssa.Function) *resolver {
	r := &resolver{params: map[*ssa.Parameter]int{}, free: map[*ssa.FreeVar]int{}, memo: map[ssa.Value][]path{}}
	for i, p := range fn.Params {
		r.params[p] = i
	}
	for i, fv := range fn.FreeVars {
		r.free[fv] = i
	}
	return r
}

const maxPaths = 4

func (r *resolver) paths(v ssa.Value) []path {
	if ps, ok := r.memo[v]; ok {
		return ps
	}
	r.memo[v] = nil
	ps := r.compute(v)
	if len(ps) > maxPaths {
		ps = ps[:maxPaths]
	}
	r.memo[v] = ps
	return ps
}

func (r *resolver) compute(v ssa.Value) []path {
	switch v := v.(type) {
	case *ssa.Parameter:
		return []path{{str: "$" + strconv.Itoa(r.params[v]), class: summary.TypeClass(v.Type())}}
	case *ssa.FreeVar:
		return []path{{str: "$f" + strconv.Itoa(r.free[v]), class: summary.TypeClass(v.Type())}}
	case *ssa.Global:
		if v.Pkg == nil {
			return nil
		}
		return []path{{str: "@" + v.Pkg.Pkg.Path() + "." + v.Name(), class: v.Pkg.Pkg.Path() + "." + v.Name()}}
	case *ssa.FieldAddr:
		name, class := fieldOf(v.X.Type(), v.Field)
		return mapPaths(r.paths(v.X), func(p path) path { return path{str: p.step("." + name), class: class} })
	case *ssa.Field:
		name, class := fieldOf(v.X.Type(), v.Field)
		return mapPaths(r.paths(v.X), func(p path) path { return path{str: p.str + "." + name, loaded: true, class: class} })
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
			return r.cellContents(cell)
		}
		return mapPaths(r.paths(v.X), func(p path) path { return path{str: p.location(), loaded: true, class: p.class} })
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
		if v.CommaOk {
			return nil
		}
		return r.paths(v.X)
	case *ssa.SliceToArrayPointer:
		return r.paths(v.X)
	case *ssa.Extract:
		if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 {
			return r.paths(ta.X)
		}
	case *ssa.Phi:
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
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "ssa:wrapnilchk" {
			return r.paths(v.Call.Args[0])
		}
	}
	return nil
}

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

func fieldOf(t types.Type, i int) (name, class string) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return "?", ""
	}
	name = st.Field(i).Name()
	return name, summary.TypeClass(t) + "." + name
}

// A frame maps the roots of a callee ($i, $fi) onto the caller's paths.
// cells marks the free variables bound to a captured variable's cell: the
// callee's paths go through it ("$f0->x").
type frame struct {
	args, binds [][]path
	cells       []bool
}

// loc maps a callee location (a lock) onto the caller's locations; nil
// when it is local to the caller or unknown.
func (fr *frame) loc(loc string) []string {
	bare := summary.Root(loc) == loc && !strings.HasPrefix(loc, "@")
	var out []string
	for _, p := range fr.value(path{str: loc}) {
		if bare {
			out = append(out, p.location()) // the lock is the argument itself
		} else {
			out = append(out, p.str)
		}
	}
	return out
}

// value maps a path of the callee (a value, or a location when not
// loaded) onto the caller's.
func (fr *frame) value(q path) []path {
	root := summary.Root(q.str)
	if len(root) < 2 || root[0] != '$' && root[0] != '@' {
		return nil // no path (a lock known by its class alone)
	}
	tail := q.str[len(root):]
	if strings.HasPrefix(root, "@") {
		return []path{q}
	}
	var ps []path
	if strings.HasPrefix(root, "$f") {
		i := atoi(root[2:])
		if i < 0 || i >= len(fr.binds) {
			return nil
		}
		ps = fr.binds[i]
		if i < len(fr.cells) && fr.cells[i] {
			if tail == "" {
				if q.loaded {
					return ps // the value held in the captured variable
				}
				return nil // the cell itself: local to the caller
			}
			rest, ok := strings.CutPrefix(tail, "->")
			if !ok {
				return nil
			}
			var out []path
			for _, p := range ps {
				s := p.location()
				if rest != "" {
					if rest[0] != '[' {
						rest = "." + rest
					}
					s = extendTail(p, rest)
				}
				out = append(out, path{str: s, loaded: q.loaded, class: q.class})
			}
			return out
		}
	} else {
		i := atoi(root[1:])
		if i < 0 || i >= len(fr.args) {
			return nil
		}
		ps = fr.args[i]
	}
	if tail == "" && !q.loaded {
		return ps
	}
	var out []path
	for _, p := range ps {
		out = append(out, path{str: extendTail(p, tail), loaded: q.loaded, class: q.class})
	}
	return out
}

func extendTail(p path, tail string) string {
	switch {
	case tail == "":
		return p.location()
	case strings.HasPrefix(tail, "->"):
		return p.location() + tail
	}
	n := stepLen(tail)
	return p.step(tail[:n]) + tail[n:]
}

func stepLen(tail string) int {
	if strings.HasPrefix(tail, "[*]") {
		return 3
	}
	i := strings.IndexAny(tail[1:], ".[-")
	if i < 0 {
		return len(tail)
	}
	return i + 1
}

func atoi(s string) int {
	if s == "" {
		return -1
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}
