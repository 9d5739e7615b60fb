package testgen

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// A Subject is a type under test with what the generator needs to know
// about it: its constructors, its methods and their signatures, and the
// constructors of the other types of its package.
type Subject struct {
	Pkg  *types.Package
	Plan *deps.TypePlan
	// Type is the type under test, instantiated when it is generic;
	// TypeArgs are the type arguments chosen for it.
	Type     types.Type
	TypeArgs []types.Type
	// Methods are the methods of *Type named in the plan, by name.
	// Methods promoted from package sync (Lock, Unlock, ...) are left out.
	Methods map[string]*types.Signature
	Names   []string // the names of Methods, sorted
	// Ctors are the functions that may build the type under test: those
	// returning Type or *Type, then those returning an interface it
	// implements.
	Ctors []*Func
	// Funcs are the functions that build values of named types of the
	// package, the type under test's included, and of the other modules'
	// types its parameters name (Func.Pkg), by name.
	Funcs map[string]*Func
	// Docs are the documentation comments of the methods, by name, when
	// the caller has the syntax: they state what callers must not do.
	Docs map[string]string
	// TypeDoc is the documentation comment of the type, when the caller
	// has the syntax; WrappedDoc those of the package's types it holds in
	// its fields, whose methods its own often call (a wrapper's Wait
	// calling its pool's): what they say a method ends binds the
	// wrapper's method of that name too.
	TypeDoc, WrappedDoc string
	// PkgDoc is the package's doc comment, when the caller has the
	// syntax: what it says of the concurrency of a type's methods binds
	// them (a "Concurrency" section of a connection package).
	PkgDoc string
	// Shared are the functions that return a process-wide instance of
	// the type (a package variable: GetDefaultSet), taken out of Ctors.
	Shared []string
	// Clock holds the methods whose results may depend on the clock
	// (they read time.Now, directly or through the package's code), by
	// name, when the caller has the syntax: not observers for the
	// linearizability oracle.
	Clock map[string]bool
	// Literals are string constants of the package (the names it
	// compares with, the keys of its tables), which arguments may take
	// besides the usual small strings.
	Literals []string
	// Compared are, by method and parameter index, the values the
	// method's body compares the parameter with (name == "", n == 0, a
	// switch's cases), when the caller has the syntax: arguments take
	// them now and then, and the self pair of a method that may lock
	// twice tries each before it is saturated (see Variants).
	Compared map[string]map[int][]harness.Value
	// Asserted are the types of the package its code asserts interface
	// values to: an empty-interface parameter sometimes gets one of
	// them, built by one of the package's functions.
	Asserted []types.Type
	// enums are the values of the package's constants, by their named
	// type (see enumsOf).
	enums map[*types.TypeName][]string
	// adapters are the package's function types with methods.
	adapters []*types.Named
	byRes    map[*types.TypeName][]*Func
	// stubs are the interfaces that stubs implement, by StubKey (see
	// stubs.go).
	stubs map[string]*types.Named
}

// NewSubject returns the subject for the type plan of package pkg. It
// fails when the type is not in the package or is generic with type
// parameters it cannot instantiate.
func NewSubject(pkg *types.Package, plan *deps.TypePlan) (*Subject, error) {
	tn, ok := pkg.Scope().Lookup(plan.Name).(*types.TypeName)
	if !ok {
		return nil, fmt.Errorf("%s.%s is not a type", pkg.Path(), plan.Name)
	}
	named, ok := tn.Type().(*types.Named)
	if !ok || tn.IsAlias() {
		return nil, fmt.Errorf("%s.%s is not a defined type", pkg.Path(), plan.Name)
	}
	s := &Subject{Pkg: pkg, Plan: plan, Type: named, Methods: map[string]*types.Signature{},
		Funcs: map[string]*Func{}, byRes: map[*types.TypeName][]*Func{}}
	if tps := named.TypeParams(); tps.Len() > 0 {
		args, err := typeArgs(tps)
		if err != nil {
			return nil, fmt.Errorf("generic type %s: %w", plan.Name, err)
		}
		inst, err := types.Instantiate(nil, named, args, true)
		if err != nil {
			return nil, fmt.Errorf("instantiating %s: %w", plan.Name, err)
		}
		s.Type, s.TypeArgs = inst, args
	}
	inPlan := map[string]bool{}
	for _, m := range plan.Methods {
		inPlan[m.Name] = true
	}
	mset := types.NewMethodSet(types.NewPointer(s.Type))
	for i := range mset.Len() {
		f := mset.At(i).Obj().(*types.Func)
		if !inPlan[f.Name()] || f.Pkg() != nil && f.Pkg().Path() == "sync" {
			continue
		}
		s.Methods[f.Name()] = f.Type().(*types.Signature)
		s.Names = append(s.Names, f.Name())
	}
	slices.Sort(s.Names)
	s.findFuncs()
	s.findStubs()
	s.Ctors = s.ctorsOf()
	s.enums = enumsOf(pkg)
	s.adapters = adaptersOf(pkg)
	return s, nil
}

// adaptersOf returns the function types of pkg with methods, such as
// http.HandlerFunc: the adapters through which the package lets a
// function stand for an interface, in the order of their names.
func adaptersOf(pkg *types.Package) []*types.Named {
	var out []*types.Named
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || !tn.Exported() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams().Len() > 0 || n.NumMethods() == 0 {
			continue
		}
		if _, ok := n.Underlying().(*types.Signature); ok {
			out = append(out, n)
		}
	}
	return out
}

// Adapters returns the names of the package's function types with
// methods (see adaptersOf), which the harness must know by name.
func (s *Subject) Adapters() []string {
	var out []string
	for _, n := range s.adapters {
		out = append(out, n.Obj().Name())
	}
	return out
}

// enumsOf returns, for each named type of pkg with an integer or string
// underlying type, the values of the package's constants of that type
// (Mode: ModeRead, ModeWrite; Level: "debug", "info"), as literals.
func enumsOf(pkg *types.Package) map[*types.TypeName][]string {
	out := map[*types.TypeName][]string{}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok {
			continue
		}
		n, ok := types.Unalias(c.Type()).(*types.Named)
		if !ok || n.Obj().Pkg() != pkg {
			continue
		}
		var lit string
		switch c.Val().Kind() {
		case constant.Int:
			lit = c.Val().ExactString()
		case constant.String:
			if lit = constant.StringVal(c.Val()); OutsidePath(lit) {
				continue
			}
		default:
			continue
		}
		if !slices.Contains(out[n.Obj()], lit) {
			out[n.Obj()] = append(out[n.Obj()], lit)
		}
	}
	return out
}

// candidates are the type arguments tried for a type parameter, in order.
var candidates = []types.Type{types.Typ[types.Int], types.Typ[types.String], types.NewInterfaceType(nil, nil)}

// typeArgs chooses a type argument for each type parameter: the first
// candidate that satisfies its constraint.
func typeArgs(tps *types.TypeParamList) ([]types.Type, error) {
	var args []types.Type
	for i := range tps.Len() {
		tp := tps.At(i)
		iface, _ := tp.Constraint().Underlying().(*types.Interface)
		var found types.Type
		for _, c := range candidates {
			if iface == nil || types.Satisfies(c, iface) {
				found = c
				break
			}
		}
		if found == nil {
			return nil, fmt.Errorf("no type argument for %s %s", tp.Obj().Name(), tp.Constraint())
		}
		args = append(args, found)
	}
	return args, nil
}

// Qualifier names packages other than the subject's by their name.
func (s *Subject) Qualifier(p *types.Package) string {
	if p == s.Pkg {
		return ""
	}
	return p.Name()
}

// TypeExpr is the Go expression of the type under test in its package:
// "Cache" or "Cache[int, string]".
func (s *Subject) TypeExpr() string { return types.TypeString(s.Type, s.Qualifier) }

// isSubject reports whether t is the type under test or a pointer to it.
func (s *Subject) isSubject(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return types.Identical(t, s.Type)
}

// fits reports whether a shared object (a *T) can be passed to a
// parameter of type t: t is T, *T, or an interface *T implements.
func (s *Subject) fits(t types.Type) bool {
	if s.isSubject(t) {
		return true
	}
	// An empty interface takes anything: a shared object passed there
	// (a logger's Log(a, …)) is only formatted or stored, and a race of
	// that with the object's own writes is the test's, not the type's;
	// unless the package asserts such values to the type itself (an
	// Equal(other any) that takes other as a *T).
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.Empty() && !slices.ContainsFunc(s.Asserted, s.isSubject) {
		return false
	}
	return types.Implements(types.NewPointer(s.Type), iface)
}

// Linker reports whether method m takes a parameter that a shared object
// can be passed to: calling a.m(b) and b.m(a) may link two objects.
func (s *Subject) Linker(m string) bool {
	sig := s.Methods[m]
	if sig == nil {
		return false
	}
	for i := range sig.Params().Len() {
		if s.fits(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// MethodExprs returns the method expressions of the methods of the type
// under test that reflection cannot call by name (the unexported ones),
// by method name: "(*cache).get".
func (s *Subject) MethodExprs() map[string]string {
	out := map[string]string{}
	for _, m := range s.Names {
		if !token.IsExported(m) {
			out[m] = "(*" + s.TypeExpr() + ")." + m
		}
	}
	return out
}
