package lockstate

import (
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A Frame maps the paths of a callee onto its caller's at a call: the
// callee's roots $i and $fi stand for the values the caller passes as
// its parameters and binds to its free variables. A package variable is
// the same in both.
type Frame struct {
	// Args and Binds are the caller's paths of the values of the
	// callee's parameters and free variables.
	Args, Binds [][]Path
	// Cells marks the free variables bound to a captured variable's
	// cell: Binds[i] are the paths of the value the cell holds, and the
	// callee's paths go through it ("$f0->x").
	Cells []bool
	// ArgVals and BindVals are the values themselves, when they are
	// values of the caller's function, which Namer names (nil
	// otherwise). A wrapper struct the caller made (view{x},
	// &cb{s: s}) maps the callee's locations behind its fields onto the
	// values the caller stored there, a struct passed by value (a value
	// receiver) keeps its fields in place, and a local variable of the
	// caller holds none of the caller's shared locations.
	ArgVals, BindVals []ssa.Value
	Namer             *Namer
	// Fields maps, for root $i, the fields of the struct it is (a
	// wrapper stored in a field of an object: s.handler = recorder{s})
	// to what they are known to hold on the caller's side.
	Fields []map[string][]Path
}

// CallFrame returns the frame of a call made in the function n names:
// args are the values of the callee's parameters, bindings those of its
// free variables (a closure's).
func CallFrame(n *Namer, args, bindings []ssa.Value) *Frame {
	fr := &Frame{ArgVals: args, BindVals: bindings, Namer: n}
	if len(args) > 0 {
		fr.Args = make([][]Path, len(args))
		for i, a := range args {
			fr.Args[i] = n.Paths(a)
		}
	}
	fr.Binds, fr.Cells = Bindings(n, bindings)
	return fr
}

// Bindings returns the paths of the values bound to a closure's free
// variables, named by n: the value stored in a captured variable's cell
// (cells[i] set), or the bound value.
func Bindings(n *Namer, bindings []ssa.Value) (binds [][]Path, cells []bool) {
	if len(bindings) == 0 {
		return nil, nil
	}
	binds = make([][]Path, len(bindings))
	cells = make([]bool, len(bindings))
	for i, b := range bindings {
		if cell, ok := b.(*ssa.Alloc); ok {
			binds[i], cells[i] = n.CellContents(cell), true
		} else {
			binds[i] = n.Paths(b)
		}
	}
	return binds, cells
}

// Loc maps a location of the callee (an access, a lock) onto the
// caller's locations; nil when it is local to the caller or unknown.
func (fr *Frame) Loc(loc string) []string {
	bare := Root(loc) == loc && !strings.HasPrefix(loc, "@")
	var out []string
	for _, p := range fr.Value(Path{Str: loc}) {
		if bare {
			out = append(out, p.Location()) // the location is the argument itself
		} else {
			out = append(out, p.Str)
		}
	}
	return out
}

// Value maps a path of the callee (a value, or a location when not
// loaded) onto the caller's.
func (fr *Frame) Value(q Path) []Path {
	root := Root(q.Str)
	if len(root) < 2 || root[0] != '$' && root[0] != '@' {
		return nil // no path (a lock known by its class alone)
	}
	tail := q.Str[len(root):]
	if root[0] == '@' {
		return []Path{q}
	}
	var ps []Path
	var v ssa.Value
	if strings.HasPrefix(root, "$f") {
		i := ParseIndex(root[2:])
		if i < 0 || i >= len(fr.Binds) {
			return nil
		}
		ps = fr.Binds[i]
		if i < len(fr.Cells) && fr.Cells[i] {
			return throughCell(ps, tail, q)
		}
		if i < len(fr.BindVals) {
			v = fr.BindVals[i]
		}
	} else {
		i := ParseIndex(root[1:])
		if i < 0 || i >= len(fr.Args) {
			return nil
		}
		ps = fr.Args[i]
		if i < len(fr.Fields) && fr.Fields[i] != nil && strings.HasPrefix(tail, ".") {
			n := stepLen(tail)
			if contents, ok := fr.Fields[i][tail[1:n]]; ok {
				return intoField(contents, tail[n:], q.Loaded)
			}
		}
		if i < len(fr.ArgVals) {
			v = fr.ArgVals[i]
		}
	}
	if v != nil && fr.Namer != nil {
		if LocalStruct(v) != nil {
			// A wrapper made by the caller (view{r}.best(), &cb{s: s}):
			// a location behind one of its fields is the caller's.
			return fr.Namer.throughField(v, tail, q.Loaded)
		}
		if _, ok := v.(*ssa.Alloc); ok {
			return nil // a local variable of the caller
		}
		if tail != "" && concreteType(v) != nil {
			// The callee reaches into an interface parameter, through
			// a type assertion to a type the summary does not name, and
			// the caller passes a value of a known type: the callee's
			// location may belong to another type (a type switch's
			// other case).
			return nil
		}
		if _, ok := v.Type().Underlying().(*types.Struct); ok && !strings.HasPrefix(tail, "->") {
			// A struct passed by value (a value receiver): its fields
			// are in place, where the caller loaded it from.
			var out []Path
			for _, p := range ps {
				out = append(out, Path{Str: p.Str + tail, Loaded: q.Loaded, Class: q.Class})
			}
			return out
		}
	}
	if tail == "" && !q.Loaded {
		return ps
	}
	var out []Path
	for _, p := range ps {
		out = append(out, Path{Str: extendTail(p, tail), Loaded: q.Loaded, Class: q.Class})
	}
	return out
}

// throughCell maps q, whose root is a free variable bound to a captured
// variable's cell holding a value with paths ps, onto those paths: the
// callee reaches the value through the cell ("$f0->x").
func throughCell(ps []Path, tail string, q Path) []Path {
	if tail == "" {
		if q.Loaded {
			return ps // the value held in the captured variable
		}
		return nil // the cell itself: local to the caller
	}
	rest, ok := strings.CutPrefix(tail, "->")
	if !ok {
		return nil
	}
	var out []Path
	for _, p := range ps {
		out = append(out, Path{Str: extend(p, rest), Loaded: q.Loaded, Class: q.Class})
	}
	return out
}

// Exact maps a callee's path under the exact policy onto the caller's
// values (ArgVals and BindVals, named by Namer); false when it names
// none of them.
func (fr *Frame) Exact(p ExactPath) (ExactPath, bool) {
	if strings.HasPrefix(p.Root, "@") {
		return p, true
	}
	var v ssa.Value
	switch {
	case strings.HasPrefix(p.Root, "$f"):
		i := ParseIndex(p.Root[2:])
		if i < 0 || i >= len(fr.BindVals) {
			return ExactPath{}, false
		}
		v = fr.BindVals[i]
	case strings.HasPrefix(p.Root, "$"):
		i := ParseIndex(p.Root[1:])
		if i < 0 || i >= len(fr.ArgVals) {
			return ExactPath{}, false
		}
		v = fr.ArgVals[i]
	default:
		return ExactPath{}, false
	}
	rest := p.Rest
	if c := CapturedParam(v); c != nil && strings.HasPrefix(rest, "->") {
		// A closure's variable bound to the cell of a parameter: the
		// closure reaches the parameter through it.
		v, rest = c, rest[len("->"):]
	}
	a, ok := fr.Namer.Exact(v)
	if !ok {
		return ExactPath{}, false
	}
	q := a
	q.Rest = a.Rest + rest
	if p.Rest != "" {
		q.Class = p.Class
		q.Display = a.Display + p.Display[len(p.RootDisplay()):]
	}
	q.Values = a.Values
	return q, true
}

// InCallee names p, a path of the caller's under the exact policy, in
// the terms of fn, the function the frame's values are passed to
// (ArgVals as its parameters, BindVals as its free variables): through
// the first of them, parameters first, whose path p is or extends by a
// field or a reference. A package variable, or a part of one in place,
// is the same in both. It is the reverse of Exact; false when p is
// reached from none of the values, or only from one that may name
// several objects (Weak).
func (fr *Frame) InCallee(p ExactPath, fn *ssa.Function) (ExactPath, bool) {
	if p.Global() {
		return p, true
	}
	key := p.Key()
	try := func(v ssa.Value, root, name string) (ExactPath, bool) {
		a, ok := fr.Namer.Exact(v)
		if !ok || a.Weak || !strings.HasPrefix(key, a.Key()) {
			return ExactPath{}, false
		}
		rest := key[len(a.Key()):]
		if rest != "" && !strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, "->") {
			return ExactPath{}, false
		}
		disp := name + strings.ReplaceAll(rest, "->", "")
		return ExactPath{Root: root, Rest: rest, Display: disp, Class: p.Class}, true
	}
	for j, arg := range fr.ArgVals {
		if j < len(fn.Params) {
			if q, ok := try(arg, "$"+strconv.Itoa(j), fn.Params[j].Name()); ok {
				return q, true
			}
		}
	}
	for j, b := range fr.BindVals {
		if j < len(fn.FreeVars) {
			if q, ok := try(b, "$f"+strconv.Itoa(j), fn.FreeVars[j].Name()); ok {
				return q, true
			}
		}
	}
	return ExactPath{}, false
}
