package heldcalls

import (
	"go/types"
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

// A resolver names the SSA values of one function as the summaries do
// (summary.Namer), so that the two never disagree on a path.
type resolver struct{ r *summary.Namer }

func newResolver(fn *ssa.Function) *resolver { return &resolver{summary.NewNamer(fn)} }

// paths returns the access paths v may denote (nil when v is local or
// unknown).
func (r *resolver) paths(v ssa.Value) []path { return fromSummary(r.r.Paths(v)) }

// cellContents returns the paths stored in a captured variable's cell.
func (r *resolver) cellContents(cell *ssa.Alloc) []path { return fromSummary(r.r.CellContents(cell)) }

func fromSummary(ps []summary.Path) []path {
	if ps == nil {
		return nil
	}
	out := make([]path, len(ps))
	for i, p := range ps {
		out[i] = path{str: p.Str, loaded: p.Loaded, class: p.Class}
	}
	return out
}

func toSummary(ps []path) []summary.Path {
	out := make([]summary.Path, len(ps))
	for i, p := range ps {
		out[i] = summary.Path{Str: p.str, Loaded: p.loaded, Class: p.class}
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
// and its class.
func fieldOf(t types.Type, i int) (name, class string) { return summary.FieldOf(t, i) }

// A frame maps the roots of a callee ($i, $fi) onto the caller's paths.
// cells marks the free variables bound to a captured variable's cell: the
// callee's paths go through it ("$f0->x").
//
// vals are the values of the arguments, when the frame is a call's in
// the caller's function (r names them): an argument without a path
// that is a wrapper struct the caller made (view{x}) maps the callee's
// locations behind its fields onto the values the caller stored there,
// and a struct passed by value keeps its fields in place.
//
// fields maps, for root $i, the fields of the struct it is (a wrapper
// stored in a field of an object: s.handler = recorder{s}) to what they
// are known to hold on the caller's side.
type frame struct {
	args, binds [][]path
	cells       []bool
	vals        []ssa.Value
	r           *resolver
	fields      []map[string][]path
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
		if i < len(fr.fields) && fr.fields[i] != nil && strings.HasPrefix(tail, ".") {
			n := summary.StepLen(tail)
			if contents, ok := fr.fields[i][tail[1:n]]; ok {
				return fromSummary(summary.IntoField(toSummary(contents), tail[n:], q.loaded))
			}
		}
		if i < len(fr.vals) && fr.vals[i] != nil && fr.r != nil {
			v := fr.vals[i]
			if len(ps) == 0 {
				return fromSummary(fr.r.r.ThroughField(v, tail, q.loaded))
			}
			if _, ok := v.Type().Underlying().(*types.Struct); ok && tail != "" && !strings.HasPrefix(tail, "->") {
				// A struct passed by value: its fields are in place.
				var out []path
				for _, p := range ps {
					out = append(out, path{str: p.str + tail, loaded: q.loaded, class: q.class})
				}
				return out
			}
		}
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

// extendTail maps a callee's path tail onto the caller's path p, as the
// summaries do.
func extendTail(p path, tail string) string {
	return summary.ExtendTail(summary.Path{Str: p.str, Loaded: p.loaded, Class: p.class}, tail)
}

// atoi returns the index a root spells ("0" in "$0"), or -1.
func atoi(s string) int { return summary.ParseIndex(s) }
