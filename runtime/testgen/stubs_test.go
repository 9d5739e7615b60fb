package testgen

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

const stubSrc = `package p

import (
	"io"
	"net"
	"sync"
)

type Scope interface{ Name() string }

type Listener interface {
	Event(name string, tags ...string) error
	Scope() Scope
}

type hidden interface{ poke(n int) (bool, error) }

type Getter[T any] interface{ Get() T }

type Options struct {
	Size int
	Sink Sink
}

type Sink interface{ Flush() }

type Bus struct{ mu sync.Mutex }

func NewBus(o Options) *Bus { return &Bus{} }

func (b *Bus) Subscribe(ls ...Listener)     {}
func (b *Bus) Hook(h hidden)                {}
func (b *Bus) Use(g Getter[int])            {}
func (b *Bus) Watch(w io.Writer)            {}
func (b *Bus) Serve(l net.Listener)         {}
func (b *Bus) Any(x interface{})            {}
`

func loadSrc(t *testing.T, files ...string) (*types.Package, error) {
	t.Helper()
	fset := token.NewFileSet()
	var fs []*ast.File
	for i, src := range files {
		f, err := parser.ParseFile(fset, fmt.Sprintf("f%d.go", i), src, 0)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		fs = append(fs, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	return conf.Check("example.com/p", fset, fs, nil)
}

func busSubject(t *testing.T) *Subject {
	t.Helper()
	pkg, err := loadSrc(t, stubSrc)
	if err != nil {
		t.Fatal(err)
	}
	var ms []deps.Method
	for _, m := range []string{"Any", "Hook", "Serve", "Subscribe", "Use", "Watch"} {
		ms = append(ms, deps.Method{Name: m, Accesses: 1, Writes: 1})
	}
	s, err := NewSubject(pkg, &deps.TypePlan{Name: "Bus", Concurrent: true, Methods: ms})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStubs checks which interfaces get stubs: those of the package,
// reached through parameters (variadic ones included), the fields of a
// configuration struct and the results of stubbed interfaces, with
// unexported methods when they are the package's own; not the standard
// library's, not the empty interface.
func TestStubs(t *testing.T) {
	s := busSubject(t)
	want := []string{"example.com/p.Getter[int]", "example.com/p.Listener", "example.com/p.Scope",
		"example.com/p.Sink", "example.com/p.hidden"}
	if got := s.StubKeys(); !slices.Equal(got, want) {
		t.Errorf("stubs %q, want %q", got, want)
	}
}

// TestStubSource checks that the declarations of the stubs compile in
// the package, that each implements its interface, and that a stub's
// results are stubs of their interfaces and errors.
func TestStubSource(t *testing.T) {
	s := busSubject(t)
	imports := map[string]string{}
	qual := func(p *types.Package) string {
		if p.Path() == s.Pkg.Path() {
			return ""
		}
		imports[p.Path()] = "x" + p.Name()
		return "x" + p.Name()
	}
	names := map[string]string{}
	for i, key := range s.StubKeys() {
		names[key] = fmt.Sprintf("stub%d", i)
	}
	stubName := func(n *types.Named) string { return names[StubKey(n)] }
	var decls strings.Builder
	for _, key := range s.StubKeys() {
		decls.WriteString(StubSource(s.Stub(key), names[key], qual, stubName))
	}
	var file strings.Builder
	file.WriteString("package p\n\n")
	for _, path := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&file, "import %s %q\n", imports[path], path)
	}
	file.WriteString(decls.String())
	for _, key := range s.StubKeys() {
		fmt.Fprintf(&file, "\nvar _ %s = &%s{}\n", types.TypeString(s.Stub(key), qual), names[key])
	}
	src := file.String()
	if _, err := loadSrc(t, stubSrc, src); err != nil {
		t.Fatalf("stubs do not compile: %v\n%s", err, src)
	}
	for _, frag := range []string{
		"func (*stub1) Event(_ string, _ ...string) (r0 error) {\n\tr0 = xerrors.New(",
		"func (*stub1) Scope() (r0 Scope) {\n\tr0 = &stub2{}",
		"func (*stub4) poke(_ int) (r0 bool, r1 error) {",
	} {
		if !strings.Contains(src, frag) {
			t.Errorf("stubs lack %q:\n%s", frag, src)
		}
	}
}

// TestStubArguments checks that an interface parameter with a stub gets
// it, that nil stays possible, that a configuration's interface field
// gets one now and then, and that a retried probe's arguments are not
// nil where a stub fits.
func TestStubArguments(t *testing.T) {
	s := busSubject(t)
	v := &valuer{s: s, rng: rand.New(rand.NewPCG(1, 2)), dropped: func(string) bool { return false }}
	count := map[string]int{}
	for range 200 {
		for _, m := range []string{"Subscribe", "Hook", "Watch", "Serve"} {
			for _, a := range v.args(s.Methods[m], 0) {
				if a.K == harness.KSlice && len(a.Elems) > 0 {
					a = a.Elems[0]
				}
				count[m+" "+a.K]++
				if a.K == harness.KStub && (m == "Watch" || m == "Serve") {
					t.Fatalf("%s got a stub %q", m, a.Type)
				}
			}
		}
		for _, a := range v.args(s.Funcs["NewBus"].Sig, 0) {
			for _, e := range a.Elems {
				if e.Field == "Sink" && e.K == harness.KStub {
					count["NewBus stub"]++
				}
			}
		}
	}
	for _, k := range []string{"Subscribe stub", "Hook stub", "Hook zero", "NewBus stub"} {
		if count[k] == 0 {
			t.Errorf("no %q among %v", k, count)
		}
	}
	v.nonNil = true
	for range 100 {
		if a := v.args(s.Methods["Hook"], 0)[0]; a.K != harness.KStub {
			t.Fatalf("non-nil argument of Hook: %+v, want a stub", a)
		}
	}
}

// TestListenerArguments checks that a net.Listener parameter mostly gets
// a listener (harness.KListener), always in a retried probe, and that a
// method taking one is kept out of prefixes: it serves until the
// listener closes.
func TestListenerArguments(t *testing.T) {
	s := busSubject(t)
	v := &valuer{s: s, rng: rand.New(rand.NewPCG(1, 2)), dropped: func(string) bool { return false }}
	listeners := 0
	for range 100 {
		if v.args(s.Methods["Serve"], 0)[0].K == harness.KListener {
			listeners++
		}
	}
	if listeners < 75 {
		t.Errorf("%d of 100 listener arguments, want most", listeners)
	}
	v.nonNil = true
	for range 50 {
		if a := v.args(s.Methods["Serve"], 0)[0]; a.K != harness.KListener {
			t.Fatalf("retried probe's argument %+v, want a listener", a)
		}
	}
	g := New(s, Config{Seed: 1, Find: FindAll, Pairs: PairsDependent, MaxLen: 4})
	if !g.noPrefix["Serve"] || g.noPrefix["Subscribe"] {
		t.Errorf("kept out of prefixes: %v, want Serve only", g.noPrefix)
	}
}

// TestStubImportsOnlyUsed checks that a stub names a package, which the
// file must then import, only when it uses it: a Go file that imports a
// package it does not use does not compile.
func TestStubImportsOnlyUsed(t *testing.T) {
	s := busSubject(t)
	named := map[string]bool{}
	qual := func(p *types.Package) string {
		if p.Path() != s.Pkg.Path() {
			named[p.Path()] = true
		}
		return p.Name()
	}
	StubSource(s.Stub("example.com/p.Scope"), "stub0", qual, func(*types.Named) string { return "" })
	if len(named) > 0 {
		t.Errorf("the stub of Scope names %v, which it does not use", named)
	}
	StubSource(s.Stub("example.com/p.Listener"), "stub1", qual, func(*types.Named) string { return "" })
	if !named["errors"] {
		t.Error("the stub of Listener, whose Event returns an error, does not name package errors")
	}
}
