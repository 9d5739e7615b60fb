// Package testgen generates the concurrent tests of depcon test, after the
// DepCon+ Algorithms 3 (exception mode) and 4 (deadlock mode): for each
// type under test, it picks the least-covered method pair, builds a prefix
// from a constructor and, every second test, state-changing calls, and two
// suffixes that the harness runs in two goroutines.
//
// Generation is driven by the types of the package (go/types) and the
// plan of the deps analyzer, and is deterministic from a seed.
package testgen

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
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
	Ctors   []*Func  // functions returning Type or *Type
	// Funcs are the constructors of named types of the package, the
	// type under test's included, by name.
	Funcs map[string]*Func
	byRes map[*types.TypeName][]*Func
}

// A Func is a constructor: a package-level function returning a named
// type of the package or a pointer to it, and optionally an error.
type Func struct {
	Name string
	Expr string // how the registration file names it ("NewCache[int]")
	Sig  *types.Signature
	Res  *types.Named // the named type it returns
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
	s.Ctors = append(s.Ctors, s.byRes[tn]...)
	return s, nil
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

// findFuncs finds the constructors of the named types of the package.
// Generic ones are instantiated when their type parameters are exactly
// the type arguments of the result, as in func New[K, V any]() *Map[K, V],
// and the result is the type under test.
func (s *Subject) findFuncs() {
	scope := s.Pkg.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		sig := fn.Type().(*types.Signature)
		res := resultNamed(sig)
		if res == nil || res.Obj().Pkg() != s.Pkg {
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
		s.Funcs[name] = f
		s.byRes[f.Res.Obj()] = append(s.byRes[f.Res.Obj()], f)
	}
}

// instantiate instantiates the generic constructor fn of the type under
// test, or returns nil.
func (s *Subject) instantiate(fn *types.Func, res *types.Named) *Func {
	if res.Origin() != s.Type.(*types.Named).Origin() || len(s.TypeArgs) == 0 {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	tps := sig.TypeParams()
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
	inst, err := types.Instantiate(nil, sig, args, true)
	if err != nil {
		return nil
	}
	isig := inst.(*types.Signature)
	var names []string
	for _, a := range args {
		names = append(names, types.TypeString(a, s.Qualifier))
	}
	return &Func{Name: fn.Name(), Expr: fn.Name() + "[" + strings.Join(names, ", ") + "]", Sig: isig,
		Res: resultNamed(isig)}
}

// resultNamed returns N when sig returns N, *N, (N, error) or (*N, error)
// for a named type N, and nil otherwise.
func resultNamed(sig *types.Signature) *types.Named {
	res := sig.Results()
	switch {
	case res.Len() == 2 && types.Identical(res.At(1).Type(), errorType):
	case res.Len() != 1:
		return nil
	}
	t := res.At(0).Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	if n == nil || types.IsInterface(n) {
		return nil
	}
	return n
}

var errorType = types.Universe.Lookup("error").Type()

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
	iface, ok := t.Underlying().(*types.Interface)
	return ok && types.Implements(types.NewPointer(s.Type), iface)
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
