package testgen

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// Stubs stand for the interface parameters that nothing of the package
// implements: a listener, an observer, a sink, a connection of the
// package's own protocol. A stub is a type that the registration file
// and the reproducers declare, whose methods do nothing: a result of an
// interface with a stub of its own is a new stub of it, an error result
// is an error (so that a loop reading from a stub ends), and the other
// results are zero values. It is the no-op implementation a user's test
// would pass; without it the parameter is nil and every call that uses
// it panics.
//
// Only interfaces of packages outside the standard library get stubs:
// the harness gives the standard library's the values a program uses
// (readers, writers, connections, contexts), and a stub of, say, a
// net.Listener would feed a server's accept loop for ever.

// maxStubs bounds the stubs of a subject, interface results included.
const maxStubs = 12

// findStubs collects the interfaces that stubs implement: those of the
// parameters of the methods and functions, and of the exported fields
// of the package's structs they take, then, transitively, those of
// their methods' results.
func (s *Subject) findStubs() {
	s.stubs = map[string]*types.Named{}
	var sigs []*types.Signature
	for _, name := range s.Names {
		sigs = append(sigs, s.Methods[name])
	}
	for _, name := range slices.Sorted(maps.Keys(s.Funcs)) {
		sigs = append(sigs, s.Funcs[name].Sig)
	}
	var queue []*types.Named
	add := func(t types.Type) {
		if n := s.stubbable(t); n != nil && len(s.stubs) < maxStubs {
			if key := StubKey(n); s.stubs[key] == nil {
				s.stubs[key] = n
				queue = append(queue, n)
			}
		}
	}
	for _, sig := range sigs {
		for i := range sig.Params().Len() {
			t := sig.Params().At(i).Type()
			if sl, ok := t.(*types.Slice); ok && sig.Variadic() && i == sig.Params().Len()-1 {
				t = sl.Elem()
			}
			add(t)
			for _, f := range s.configFields(t) {
				add(f.Type())
			}
		}
	}
	for len(queue) > 0 {
		u := queue[0].Underlying().(*types.Interface)
		queue = queue[1:]
		for i := range u.NumMethods() {
			res := u.Method(i).Type().(*types.Signature).Results()
			for j := range res.Len() {
				add(res.At(j).Type())
			}
		}
	}
}

// configFields returns the exported fields of t when it is a struct of
// the package, or a pointer to one, other than the type under test.
func (s *Subject) configFields(t types.Type) []*types.Var {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != s.Pkg || s.isSubject(t) {
		return nil
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []*types.Var
	for i := range st.NumFields() {
		if f := st.Field(i); f.Exported() && !f.Embedded() {
			out = append(out, f)
		}
	}
	return out
}

// stubbable returns t as a named interface a stub can implement, or nil:
// a non-empty, non-generic interface of a package outside the standard
// library, whose methods a file of the package under test can declare
// (exported, or the package's own) and whose signatures name only types
// such a file can name.
func (s *Subject) stubbable(t types.Type) *types.Named {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || stdPackage(n.Obj().Pkg().Path()) {
		return nil
	}
	u, ok := n.Underlying().(*types.Interface)
	if !ok || u.NumMethods() == 0 || !u.IsMethodSet() || n.TypeParams().Len() > 0 && n.TypeArgs().Len() == 0 {
		return nil
	}
	if !s.nameable(n, 0) {
		return nil
	}
	for i := range u.NumMethods() {
		m := u.Method(i)
		if !m.Exported() && m.Pkg() != s.Pkg || !s.nameable(m.Type(), 0) {
			return nil
		}
	}
	return n
}

// nameable reports whether a file of the package under test can name t:
// every named type in it is predeclared, the package's own, or exported
// by a package it may import.
func (s *Subject) nameable(t types.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		return t.Kind() != types.UnsafePointer
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() != nil && obj.Pkg() != s.Pkg && (!obj.Exported() || !importable(obj.Pkg().Path(), s.Pkg.Path())) {
			return false
		}
		if obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() && obj.Parent() != types.Universe {
			return false // a type declared in a function
		}
		for i := range t.TypeArgs().Len() {
			if !s.nameable(t.TypeArgs().At(i), depth+1) {
				return false
			}
		}
		return true
	case *types.Pointer:
		return s.nameable(t.Elem(), depth+1)
	case *types.Slice:
		return s.nameable(t.Elem(), depth+1)
	case *types.Array:
		return s.nameable(t.Elem(), depth+1)
	case *types.Chan:
		return s.nameable(t.Elem(), depth+1)
	case *types.Map:
		return s.nameable(t.Key(), depth+1) && s.nameable(t.Elem(), depth+1)
	case *types.Signature:
		if t.TypeParams().Len() > 0 {
			return false
		}
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tup.Len() {
				if !s.nameable(tup.At(i).Type(), depth+1) {
					return false
				}
			}
		}
		return true
	case *types.Interface:
		return t.Empty()
	case *types.Struct:
		return t.NumFields() == 0
	}
	return false
}

// DropStubs forgets the subject's stubs, so that its interface
// parameters get none, and reports whether it had any.
func (s *Subject) DropStubs() bool {
	had := len(s.stubs) > 0
	s.stubs = nil
	return had
}

// StubKey is the name a stub of interface n is registered under: its
// qualified name ("example.com/bus.Listener").
func StubKey(n *types.Named) string { return types.TypeString(n, nil) }

// Stub returns the interface the stub of key implements, or nil.
func (s *Subject) Stub(key string) *types.Named { return s.stubs[key] }

// StubKeys returns the keys of the subject's stubs, sorted.
func (s *Subject) StubKeys() []string { return slices.Sorted(maps.Keys(s.stubs)) }

// stubValue returns the interface t as a key of a stub, or "".
func (s *Subject) stubValue(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok && s.stubs[StubKey(n)] != nil {
		return StubKey(n)
	}
	return ""
}

// StubSource returns the declaration of the stub of interface n, named
// name: the type and its methods. qual names the packages of the types
// in the signatures (and "errors", for the error results); stubName
// names the stub of an interface result, "" when it has none.
func StubSource(n *types.Named, name string, qual types.Qualifier, stubName func(*types.Named) string) string {
	var b strings.Builder
	// Not of size zero, so that two stubs are two keys of a map; it
	// names no predeclared type, which the package may shadow.
	fmt.Fprintf(&b, "\n// %s implements %s for depcon test: its methods do nothing.\ntype %s struct{ _ *%s }\n",
		name, types.TypeString(n, qual), name, name)
	u := n.Underlying().(*types.Interface)
	for i := range u.NumMethods() {
		m := u.Method(i)
		sig := m.Type().(*types.Signature)
		var params, results, body []string
		for j := range sig.Params().Len() {
			t := sig.Params().At(j).Type()
			if sig.Variadic() && j == sig.Params().Len()-1 {
				params = append(params, "_ ..."+types.TypeString(t.(*types.Slice).Elem(), qual))
				continue
			}
			params = append(params, "_ "+types.TypeString(t, qual))
		}
		for j := range sig.Results().Len() {
			t := sig.Results().At(j).Type()
			r := fmt.Sprintf("r%d", j)
			results = append(results, r+" "+types.TypeString(t, qual))
			switch nt, _ := types.Unalias(t).(*types.Named); {
			case types.Identical(t, errorType):
				// errors is named (and imported) only when used.
				errs := qual(types.NewPackage("errors", "errors"))
				body = append(body, fmt.Sprintf("%s = %s.New(%q)", r, errs, name+"."+m.Name()))
			case nt != nil && stubName(nt) != "":
				body = append(body, fmt.Sprintf("%s = &%s{}", r, stubName(nt)))
			}
		}
		fmt.Fprintf(&b, "\nfunc (*%s) %s(%s)", name, m.Name(), strings.Join(params, ", "))
		if len(results) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(results, ", "))
		}
		b.WriteString(" {\n")
		for _, st := range body {
			b.WriteString("\t" + st + "\n")
		}
		if len(results) > 0 {
			b.WriteString("\treturn\n")
		}
		b.WriteString("}\n")
	}
	return b.String()
}
