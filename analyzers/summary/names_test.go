package summary_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/depcon/depcon/analyzers/summary"
)

const namesSrc = `package p

type T struct{ n int }

func (t *T) A(x int) {}
func (u *T) B()      {}
func (t *T) C()      {}

type Tie struct{}

func (b *Tie) B() {}
func (a *Tie) A() {}

type Anon struct{ *T }

func (*Anon) Kind()    {}
func (_ *Anon) Size(x int) {}

type Outer struct{ *T }

func (o *Outer) Own() {}

type Clash struct{}

func (c *Clash) One()    {}
func (c *Clash) Two()    {}
func (d *Clash) Three(c *Clash) {}
`

// TestNames checks the names messages give the roots of a method: its
// receiver's as declared, "recv" for one unnamed or _, the embedding
// type's for a promoted method's wrapper; by type, the most common
// receiver name of its methods, the first in source order on a tie; and
// for two methods naming their receivers differently, the type's.
func TestNames(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", namesSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	prog := pkg.Prog
	method := func(typ, name string) *ssa.Function {
		t.Helper()
		T := pkg.Pkg.Scope().Lookup(typ).Type()
		sel := prog.MethodSets.MethodSet(types.NewPointer(T)).Lookup(pkg.Pkg, name)
		if sel == nil {
			t.Fatalf("no method %s.%s", typ, name)
		}
		return prog.MethodValue(sel)
	}
	for _, c := range []struct {
		typ, name string
		want      []string
	}{
		{"T", "A", []string{"t", "x"}},
		{"T", "B", []string{"u"}},
		{"Anon", "Kind", []string{"recv"}},
		{"Anon", "Size", []string{"recv", "x"}},
		{"Anon", "A", []string{"recv", "x"}}, // promoted from *T: Anon names no receiver
		{"Outer", "A", []string{"o", "x"}},   // promoted from *T: Outer's own name
		{"Clash", "Three", []string{"d", "c"}},
	} {
		if got := summary.ParamNames(method(c.typ, c.name)); !slices.Equal(got, c.want) {
			t.Errorf("ParamNames(%s.%s) = %q, want %q", c.typ, c.name, got, c.want)
		}
	}
	for typ, want := range map[string]string{"T": "t", "Tie": "b", "Anon": "recv", "Outer": "o", "Clash": "c"} {
		if got := summary.RecvName(pkg.Pkg.Scope().Lookup(typ).Type()); got != want {
			t.Errorf("RecvName(%s) = %q, want %q", typ, got, want)
		}
	}
	for _, c := range []struct {
		typ, name, otherTyp, other string
		want                       []string
	}{
		{"T", "B", "T", "A", []string{"t"}},                       // u and t: the type's
		{"T", "A", "T", "C", []string{"t", "x"}},                  // both t
		{"Tie", "A", "Tie", "B", []string{"b"}},                   // a and b: the type's
		{"Clash", "Three", "Clash", "One", []string{"recv", "c"}}, // the type's c is Three's parameter
		{"T", "B", "Outer", "Own", []string{"u"}},                 // another type's method
	} {
		got := summary.PairNames(method(c.typ, c.name), method(c.otherTyp, c.other))
		if !slices.Equal(got, c.want) {
			t.Errorf("PairNames(%s.%s, %s.%s) = %q, want %q", c.typ, c.name, c.otherTyp, c.other, got, c.want)
		}
	}
}
