package testgen

import (
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// A Func is a function the tests call to build a value: a package-level
// function (a constructor, an option, a default configuration) or the
// method expression of a builder ("(*Builder).Build").
type Func struct {
	Name string // the name it is registered under: "NewCache", "(*Builder).Build"
	Expr string // how the package names it: "NewCache[int]", "(*Builder).Build"
	// Sig is its signature; a method expression takes its receiver first.
	Sig *types.Signature
	// Res is the named type of its first result, which may be an
	// interface: the value it returns then has some dynamic type that
	// implements Res.
	Res *types.Named
	// Pkg is the package that declares it when it is not the package
	// under test (see findForeignFuncs); Expr then names it within Pkg.
	Pkg *types.Package
}

// Iface reports whether f returns an interface.
func (f *Func) Iface() bool { return types.IsInterface(f.Res) }

// Check returns how f reports a failure in its second result: "error",
// "bool", "" when it has a single result, or "extra" when its second
// result is something else it returns beside the value (the context of
// a group: func WithContext(ctx) (*Group, context.Context)).
func (f *Func) Check() string {
	if f.Sig.Results().Len() < 2 {
		return ""
	}
	switch t := f.Sig.Results().At(1).Type(); {
	case types.Identical(t, errorType):
		return "error"
	case types.Identical(t, types.Typ[types.Bool]):
		return "bool"
	}
	return "extra"
}

// builderPrefixes are the name prefixes of unexported functions taken as
// constructors: unexported helpers are otherwise not called.
var builderPrefixes = []string{"new", "make", "default", "build", "create"}

// findFuncs finds the functions that build values of the named types of
// the package: package-level functions returning N, *N or an interface
// declared in the package (with an optional error or bool), and the
// methods of builders. Unexported functions count when their name says
// they construct. Generic functions are instantiated when their type
// parameters are exactly the type arguments of the result, as in
// func New[K, V any]() *Map[K, V], and the result is (or is implemented
// by) the type under test.
func (s *Subject) findFuncs() {
	scope := s.Pkg.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !fn.Exported() && !hasAnyPrefix(strings.ToLower(name), builderPrefixes) {
			continue
		}
		sig := fn.Type().(*types.Signature)
		res := resultNamed(sig)
		// The package's own types, and any interface the type under
		// test implements (a constructor may return it as an io.Closer
		// or as an interface of a parent package).
		if res == nil || res.Obj().Pkg() != s.Pkg && (!types.IsInterface(res) || !s.builds(res)) {
			continue
		}
		f := &Func{Name: name, Expr: name, Sig: sig, Res: res}
		if tps := sig.TypeParams(); tps.Len() > 0 {
			if f = s.instantiate(fn, res); f == nil {
				continue
			}
		} else if res.TypeArgs().Len() > 0 {
			continue
		}
		s.addFunc(f)
	}
	s.findBuilders()
	s.findForeignFuncs()
}

// findForeignFuncs adds the constructors, in their own packages, of the
// types of other modules' packages that the parameters of the methods
// and constructors name (a *z.Closer gets z.NewCloser(n)): exported,
// non-generic functions of that package returning the type or a pointer
// to it. A pointer to the zero value of such a type is often no working
// value. The standard library's are left out: its values come from the
// harness (readers, writers, contexts, connections) or work as zero
// values.
func (s *Subject) findForeignFuncs() {
	var sigs []*types.Signature
	for _, name := range s.Names {
		sigs = append(sigs, s.Methods[name])
	}
	for _, name := range slices.Sorted(maps.Keys(s.Funcs)) {
		sigs = append(sigs, s.Funcs[name].Sig)
	}
	seen := map[*types.TypeName]bool{}
	for _, sig := range sigs {
		for i := range sig.Params().Len() {
			pt := sig.Params().At(i).Type()
			if p, isPtr := pt.(*types.Pointer); isPtr {
				pt = p.Elem()
			}
			n, ok := types.Unalias(pt).(*types.Named)
			if !ok || seen[n.Obj()] || n.TypeArgs().Len() > 0 || types.IsInterface(n) {
				continue
			}
			seen[n.Obj()] = true
			pkg := n.Obj().Pkg()
			if pkg == nil || pkg == s.Pkg || !n.Obj().Exported() || stdPackage(pkg.Path()) ||
				!importable(pkg.Path(), s.Pkg.Path()) {
				continue
			}
			for _, fname := range pkg.Scope().Names() {
				fn, ok := pkg.Scope().Lookup(fname).(*types.Func)
				if !ok || !fn.Exported() {
					continue
				}
				sig := fn.Type().(*types.Signature)
				if sig.TypeParams().Len() > 0 {
					continue
				}
				if res := resultNamed(sig); res != nil && types.Identical(res, n) {
					s.addFunc(&Func{Name: pkg.Name() + "." + fname, Expr: fname, Sig: sig, Res: res, Pkg: pkg})
				}
			}
		}
	}
}

// importable reports whether the package from may import the package
// path: a path with an "internal" element only from below its parent (a
// type reached through an alias of another module's internal type is
// not).
func importable(path, from string) bool {
	elems := strings.Split(path, "/")
	for i, e := range elems {
		if e != "internal" {
			continue
		}
		parent := strings.Join(elems[:i], "/")
		if from != parent && !strings.HasPrefix(from, parent+"/") {
			return false
		}
	}
	return true
}

// stdPackage reports whether path is a standard library package's: its
// first element has no dot.
func stdPackage(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// findBuilders adds the methods of builders: a builder is a named type
// of the package, other than the type under test, with an exported
// method whose result is the type under test or an interface it
// implements (the builder's terminal method, "Build"). Its exported
// methods returning the builder itself (the chain, "WithSize") build
// builders.
func (s *Subject) findBuilders() {
	scope := s.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		b, ok := tn.Type().(*types.Named)
		if !ok || types.IsInterface(b) || s.isSubject(b) {
			continue
		}
		if b.TypeParams().Len() > 0 {
			// A generic builder builds the type under test with its
			// type arguments: Builder[K, V] for a Cache[K, V].
			if b.TypeParams().Len() != len(s.TypeArgs) {
				continue
			}
			inst, err := types.Instantiate(nil, b, s.TypeArgs, true)
			if err != nil {
				continue
			}
			b = inst.(*types.Named)
		}
		var chain, terminal []*Func
		mset := types.NewMethodSet(types.NewPointer(b))
		for i := range mset.Len() {
			m := mset.At(i).Obj().(*types.Func)
			if !m.Exported() || m.Pkg() != s.Pkg {
				continue
			}
			msig := m.Type().(*types.Signature)
			res := resultNamed(msig)
			switch {
			case res == nil:
			case types.Identical(res, b):
				chain = append(chain, s.methodExpr(b, m, res))
			case s.builds(res):
				terminal = append(terminal, s.methodExpr(b, m, res))
			}
		}
		if len(terminal) == 0 {
			continue
		}
		for _, f := range append(terminal, chain...) {
			s.addFunc(f)
		}
	}
}

// methodExpr returns method m of *b as a function taking its receiver
// first, named without b's type arguments, written with them.
func (s *Subject) methodExpr(b *types.Named, m *types.Func, res *types.Named) *Func {
	msig := m.Type().(*types.Signature)
	recv := msig.Recv().Type()
	name := b.Obj().Name() + "." + m.Name()
	expr := types.TypeString(b, s.Qualifier) + "." + m.Name()
	if _, ptr := recv.(*types.Pointer); ptr {
		name = "(*" + b.Obj().Name() + ")." + m.Name()
		expr = "(*" + types.TypeString(b, s.Qualifier) + ")." + m.Name()
	}
	params := []*types.Var{types.NewParam(m.Pos(), m.Pkg(), "recv", recv)}
	for i := range msig.Params().Len() {
		params = append(params, msig.Params().At(i))
	}
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), msig.Results(), msig.Variadic())
	return &Func{Name: name, Expr: expr, Sig: sig, Res: res}
}

func (s *Subject) addFunc(f *Func) {
	if _, dup := s.Funcs[f.Name]; dup {
		return
	}
	s.Funcs[f.Name] = f
	s.byRes[f.Res.Obj()] = append(s.byRes[f.Res.Obj()], f)
}

// builds reports whether a function returning res may build the type
// under test: res is the type, or a non-empty interface that the type
// or a pointer to it implements.
func (s *Subject) builds(res *types.Named) bool {
	if types.Identical(res, s.Type) {
		return true
	}
	iface, ok := res.Underlying().(*types.Interface)
	if !ok || iface.Empty() {
		return false
	}
	return types.Implements(types.NewPointer(s.Type), iface)
}

// ctorsOf returns the functions that may build the type under test:
// those returning it come first, then those returning an interface it
// implements (their result's dynamic type is checked when they run).
func (s *Subject) ctorsOf() []*Func {
	var direct, ifaces []*Func
	for _, name := range slices.Sorted(maps.Keys(s.Funcs)) {
		f := s.Funcs[name]
		switch {
		case types.Identical(f.Res, s.Type):
			direct = append(direct, f)
		case s.builds(f.Res):
			ifaces = append(ifaces, f)
		}
	}
	all := append(direct, ifaces...)
	// The package's own helpers (newLocalCache, which New completes)
	// may build objects a user never gets: they build only when no
	// exported function does.
	if exported := slices.DeleteFunc(slices.Clone(all), func(f *Func) bool { return !f.Exported() }); len(exported) > 0 {
		return exported
	}
	return all
}

// Exported reports whether a user can call f: an exported function, or
// an exported method ("(*Builder).Build").
func (f *Func) Exported() bool {
	name := f.Name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return token.IsExported(name)
}

// instantiate instantiates the generic function fn, whose result is
// res, or returns nil. When res's type arguments are fn's type
// parameters, as many as the type under test has (func New[K, V any]()
// *Map[K, V], a builder's NewBuilder[K, V]), they take the type under
// test's, position by position: its constructors and builders build it.
// Otherwise fn's type parameters take the first candidates that satisfy
// them (typeArgs): a function building a value of another type of the
// package (NewResource[T]) for a parameter, never the type under test.
func (s *Subject) instantiate(fn *types.Func, res *types.Named) *Func {
	sig := fn.Type().(*types.Signature)
	subject := types.IsInterface(res) || res.Origin() == s.Type.(*types.Named).Origin()
	args := s.boundArgs(sig.TypeParams(), res)
	if args == nil {
		if subject && len(s.TypeArgs) > 0 {
			return nil
		}
		var err error
		if args, err = typeArgs(sig.TypeParams()); err != nil {
			return nil
		}
	}
	inst, err := types.Instantiate(nil, sig, args, true)
	if err != nil {
		return nil
	}
	isig := inst.(*types.Signature)
	var names []string
	for _, a := range args {
		names = append(names, types.TypeString(a, s.Qualifier))
	}
	f := &Func{Name: fn.Name(), Expr: fn.Name() + "[" + strings.Join(names, ", ") + "]", Sig: isig,
		Res: resultNamed(isig)}
	if f.Res == nil || subject && !s.builds(f.Res) {
		return nil
	}
	return f
}

// boundArgs returns the type arguments of the type under test for the
// type parameters tps, when res's type arguments are exactly those
// parameters and as many as the type under test has; nil otherwise.
func (s *Subject) boundArgs(tps *types.TypeParamList, res *types.Named) []types.Type {
	if len(s.TypeArgs) == 0 || res.TypeArgs().Len() != len(s.TypeArgs) {
		return nil
	}
	args := make([]types.Type, tps.Len())
	for i := range res.TypeArgs().Len() {
		tp, ok := res.TypeArgs().At(i).(*types.TypeParam)
		if !ok || tp.Index() >= len(args) || args[tp.Index()] != nil {
			return nil
		}
		args[tp.Index()] = s.TypeArgs[i]
	}
	if slices.Contains(args, nil) {
		return nil
	}
	return args
}

// resultNamed returns N when sig returns N or *N for a named type N
// (possibly an interface, never a pointer to one), alone or with a
// second result (an error, a bool, or another value, see Func.Check),
// and nil otherwise.
func resultNamed(sig *types.Signature) *types.Named {
	res := sig.Results()
	if res.Len() != 1 && res.Len() != 2 {
		return nil
	}
	t := res.At(0).Type()
	p, ptr := t.(*types.Pointer)
	if ptr {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	if n == nil || ptr && types.IsInterface(n) || n.Obj().Name() == "error" && n.Obj().Pkg() == nil {
		return nil
	}
	return n
}

var errorType = types.Universe.Lookup("error").Type()

func hasAnyPrefix(s string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(s, p) })
}
