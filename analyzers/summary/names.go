package summary

import (
	"cmp"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// The names under which messages show the roots of access paths ($0 for
// the receiver, $1, … for the parameters). A location is kept as "$0.mu"
// in summaries and facts; it is shown as the source spells it: "c.mu" in
// a method declared func (c *Cache) ….

// anonRecv is the name shown for a receiver that the source leaves
// unnamed (func (*T) M, func (_ *T) M), or when no better one is known.
const anonRecv = "recv"

// ParamNames returns the names to show for the roots $0, $1, … of fn: the
// parameters' names, and for a method's receiver the name its declaration
// gives it ("recv" when it has none, or is _). A promoted method's
// wrapper is named as text about its receiver type is (RecvName): the
// name in the declaration it wraps is the embedded type's receiver.
func ParamNames(fn *ssa.Function) []string {
	var names []string
	for _, p := range fn.Params {
		names = append(names, p.Name())
	}
	recv := fn.Signature.Recv()
	if recv == nil || len(names) == 0 {
		return names
	}
	if decl, ok := fn.Object().(*types.Func); ok {
		if r := decl.Signature().Recv(); r != nil && baseNamed(r.Type()) != nil && baseNamed(r.Type()) == baseNamed(recv.Type()) {
			names[0] = distinct(sourceName(r.Name()), names[1:])
			return names
		}
	}
	names[0] = distinct(RecvName(recv.Type()), names[1:])
	return names
}

// RecvName returns the name to show for the receiver in text about the
// type t as a whole (its plan, its locks) or about two of its methods that
// name their receivers differently: the name its declared methods give
// their receiver most often, the first of them in source order on a tie;
// "recv" when none names it.
func RecvName(t types.Type) string {
	named := baseNamed(t)
	if named == nil {
		return anonRecv
	}
	var ms []*types.Func
	for i := 0; i < named.NumMethods(); i++ {
		ms = append(ms, named.Method(i))
	}
	slices.SortStableFunc(ms, func(a, b *types.Func) int { return cmp.Compare(a.Pos(), b.Pos()) })
	count := map[string]int{}
	best := ""
	for _, m := range ms {
		r := m.Signature().Recv()
		if r == nil {
			continue
		}
		name := sourceName(r.Name())
		if name == "" {
			continue
		}
		count[name]++
		if best == "" || count[name] > count[best] {
			best = name
		}
	}
	if best == "" {
		return anonRecv
	}
	return best
}

// PairNames returns the names to show for the roots of fn in one message
// about fn and other: fn's own (ParamNames), but for a receiver that the
// two methods of one type name differently, which is named as in text
// about the type (RecvName). other may be nil, or not a method of fn's
// type: the names are then fn's own.
func PairNames(fn, other *ssa.Function) []string {
	names := ParamNames(fn)
	if other == nil || len(names) == 0 || fn.Signature.Recv() == nil || other.Signature.Recv() == nil {
		return names
	}
	t := baseNamed(fn.Signature.Recv().Type())
	if t == nil || t != baseNamed(other.Signature.Recv().Type()) {
		return names
	}
	if on := ParamNames(other); len(on) > 0 && on[0] != names[0] {
		names[0] = distinct(RecvName(t), names[1:])
	}
	return names
}

// sourceName returns a receiver's name as declared, or "" when the
// declaration leaves it unnamed.
func sourceName(name string) string {
	if name == "_" {
		return ""
	}
	return name
}

// distinct returns name, or "recv" when one of the parameters params is
// called name already (the type's receiver name, shown in a method whose
// parameter has it); the names stay apart.
func distinct(name string, params []string) string {
	if name == "" {
		name = anonRecv
	}
	if name != anonRecv && slices.Contains(params, name) {
		return anonRecv
	}
	return name
}

// baseNamed returns the named type of a receiver type, T of T, *T and
// their instances (the generic type itself), or nil.
func baseNamed(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin()
	}
	return nil
}

// NamesWith returns the names to show for the roots of m's locations in
// one message about m and other (PairNames); m.Params when either
// method's function is not known.
func (m *Method) NamesWith(other *Method) []string {
	if other == nil || m.Func == nil || other.Func == nil {
		return m.Params
	}
	return PairNames(m.Func, other.Func)
}
