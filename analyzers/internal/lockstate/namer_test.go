package lockstate

import (
	"testing"

	"golang.org/x/tools/go/ssa"
)

const namerSrc = `package p

import "sync"

type node struct {
	val  int
	next *node
}

type inner struct {
	mu sync.Mutex
	n  int
}

type outer struct {
	mu    sync.Mutex
	inner inner
	ptr   *inner
	buf   []int
	locks []sync.Mutex
	arr   [4]inner
	m     map[string]*inner
}

var G outer
var GP *outer

func use(any) {}

func (n *node) fields() {
	use(&n.val)
	use(&n.next.val)
	use(n.next.next.val)
}

func (o *outer) nested(i int, k string) {
	use(&o.inner.n)
	use(&o.ptr.n)
	use(&o.buf[i])
	use(&o.arr[i].n)
	use(&o.arr[2].n)
	use(o.m[k])
	use(&o.locks[i])
	use(&G.inner.n)
	use(&GP.ptr.n)
}

func (o *outer) closure() func() {
	return func() { use(&o.inner.n) }
}

func (o *outer) reassigned() func() {
	return func() {
		o = nil
		use(o)
	}
}

func (v outer) byValue(i int) { use(v.arr[i].n) }

func (o *outer) phi(c bool) {
	x := o.ptr
	if c {
		x = &o.inner
	}
	use(&x.n)
	y := o.ptr
	if c {
		y = new(inner)
	}
	use(&y.n)
	var in inner
	use(&in.n)
}

func ranges(m map[string]*inner, s []*inner) {
	for _, v := range m {
		use(&v.n)
	}
	for _, v := range s {
		use(&v.n)
	}
}

func asserts(x any) {
	use(x.(*inner))
	if v, ok := x.(*node); ok {
		use(&v.val)
	}
	var y any = &inner{}
	use(y.(*node))
}
`

// TestPaths checks the summaries' policy of the namer: the paths of the
// values each function passes to use, in order.
func TestPaths(t *testing.T) {
	pkg, _ := build(t, namerSrc)
	for _, tt := range []struct {
		fn   string
		want []string
	}{
		{"(*node).fields", []string{
			"$0.val",
			"$0.next->val",
			"$0.next->next->val (loaded)",
		}},
		{"(*outer).nested", []string{
			"$0.inner.n",
			"$0.ptr->n",
			"$0.buf->[*]",
			"$0.arr[*].n",
			"$0.arr[*].n",
			"$0.m->[*] (loaded)",
			"$0.locks->[*]",
			"@example.com/p.G.inner.n",
			"@example.com/p.GP->ptr->n",
		}},
		// A closure's free variable is the cell of the captured
		// variable: the receiver is loaded from it.
		{"(*outer).closure$1", []string{"$f0->inner.n"}},
		// The value receiver is spilled to memory to index its array:
		// the spill's fields are the parameter's.
		{"(outer).byValue", []string{"$0.arr[*].n (loaded)"}},
		// A phi is all its edges' paths, or none when one is unknown (a
		// new object); a local variable has none.
		{"(*outer).phi", []string{"$0.ptr->n | $0.inner.n", "none", "none"}},
		// The values of a range over a map are its elements, as those
		// of a slice are. A parameter names the object it refers to: the
		// elements of the map or slice passed are "$0[*]", and the
		// pointers they hold lead on ("->n").
		{"ranges", []string{"$0[*]->n", "$1[*]->n"}},
		// A type assertion is its operand, unless the operand is known
		// to hold another type.
		{"asserts", []string{"$0", "$0.val", "none"}},
	} {
		t.Run(tt.fn, func(t *testing.T) {
			fn := function(t, pkg, tt.fn)
			n := NewNamer(fn)
			vals := used(fn)
			if len(vals) != len(tt.want) {
				t.Fatalf("%d values used, want %d", len(vals), len(tt.want))
			}
			for i, v := range vals {
				if got := showPaths(n.Paths(v)); got != tt.want[i] {
					t.Errorf("Paths(%s = %s) = %s, want %s", v.Name(), v, got, tt.want[i])
				}
			}
		})
	}
}

// TestPathClass checks the classes the summaries' paths carry: the field
// of the type that holds the location, or the package variable.
func TestPathClass(t *testing.T) {
	pkg, _ := build(t, namerSrc)
	fn := function(t, pkg, "(*outer).nested")
	n := NewNamer(fn)
	vals := used(fn)
	for i, want := range map[int]string{
		0: "example.com/p.inner.n",
		1: "example.com/p.inner.n",
		2: "", // an element has no class
		7: "example.com/p.inner.n",
	} {
		ps := n.Paths(vals[i])
		if len(ps) != 1 || ps[0].Class != want {
			t.Errorf("class of %s = %+v, want %q", vals[i], ps, want)
		}
	}
	// A package variable's class is its name.
	g := pkg.Var("G")
	if ps := n.Paths(g); len(ps) != 1 || ps[0].Class != "example.com/p.G" || ps[0].Str != "@example.com/p.G" {
		t.Errorf("Paths(G) = %+v", ps)
	}
}

// TestDottedGlobal checks how both policies of the namer name the package
// variables of a package whose import path's last element has a dot: the
// root quotes the path (GlobalRoot), the class spells the variable as Go
// does, and Display shows the path's last element.
func TestDottedGlobal(t *testing.T) {
	pkg, _ := buildAt(t, "example.com/p.v2", namerSrc)
	fn := function(t, pkg, "(*outer).nested")
	n := NewNamer(fn)
	if ps := n.Paths(pkg.Var("G")); len(ps) != 1 || ps[0].Str != `@"example.com/p.v2".G` || ps[0].Class != "example.com/p.v2.G" {
		t.Errorf("Paths(G) = %+v", ps)
	}
	vals := used(fn)
	ps := n.Paths(vals[7]) // &G.inner.n
	if len(ps) != 1 || ps[0].Str != `@"example.com/p.v2".G.inner.n` {
		t.Fatalf("Paths(&G.inner.n) = %+v", ps)
	}
	if got := GlobalPkg(ps[0].Str); got != "example.com/p.v2" {
		t.Errorf("GlobalPkg(%q) = %q", ps[0].Str, got)
	}
	if got := Display(ps[0].Str, nil); got != "p.v2.G.inner.n" {
		t.Errorf("Display(%q) = %q", ps[0].Str, got)
	}
	for i, want := range map[int][2]string{
		7: {`@"example.com/p.v2".G.inner.n`, "@example.com/p.v2.G.inner.n"},
		8: {`@"example.com/p.v2".GP->.ptr->.n`, "@example.com/p.v2.GP->.ptr->.n"},
	} {
		p, ok := n.Exact(vals[i])
		if !ok || p.Key() != want[0] || p.Class != want[1] {
			t.Errorf("Exact(%s) = %q (class %q), %v; want %q (class %q)", vals[i], p.Key(), p.Class, ok, want[0], want[1])
		}
	}
}

// TestExact checks the lock flows' policy of the namer: exact indices,
// local roots, a phi as a root of its own (weak), and a load through a
// reference as a step of its own ("->", then ".n").
func TestExact(t *testing.T) {
	pkg, _ := build(t, namerSrc)
	type want struct {
		key, display, class string
		weak, local         bool
	}
	for _, tt := range []struct {
		fn   string
		want []want
	}{
		{"(*outer).nested", []want{
			{key: "$0.inner.n", display: "o.inner.n", class: "example.com/p.inner.n"},
			{key: "$0.ptr->.n", display: "o.ptr.n", class: "example.com/p.inner.n"},
			{key: "$0.buf->[%i]", display: "o.buf[i]", class: "example.com/p.outer.buf->[*]"},
			{key: "$0.arr[%i].n", display: "o.arr[i].n", class: "example.com/p.inner.n"},
			{key: "$0.arr[2].n", display: "o.arr[2].n", class: "example.com/p.inner.n"},
			{key: "$0.m->[%k]", display: "o.m[k]", class: "example.com/p.outer.m->[*]"},
			{key: "$0.locks->[%i]", display: "o.locks[i]", class: "example.com/p.outer.locks->[*]"},
			{key: "@example.com/p.G.inner.n", display: "G.inner.n", class: "@example.com/p.G.inner.n"},
			{key: "@example.com/p.GP->.ptr->.n", display: "GP.ptr.n", class: "@example.com/p.GP->.ptr->.n"},
		}},
		{"(*outer).closure$1", []want{
			{key: "$f0->.inner.n", display: "o.inner.n", class: "example.com/p.inner.n"},
		}},
		{"(*outer).phi", []want{
			{key: "%t3.n", display: "x.n", class: "example.com/p.inner.n", weak: true, local: true},
			{key: "%t10.n", display: "y.n", class: "example.com/p.inner.n", weak: true, local: true},
			{key: "%t14.n", display: "in.n", class: "example.com/p.inner.n", local: true},
		}},
	} {
		t.Run(tt.fn, func(t *testing.T) {
			fn := function(t, pkg, tt.fn)
			n := NewNamer(fn)
			vals := used(fn)
			if len(vals) != len(tt.want) {
				t.Fatalf("%d values used, want %d", len(vals), len(tt.want))
			}
			for i, v := range vals {
				p, ok := n.Exact(v)
				got := want{p.Key(), p.Display, p.Class, p.Weak, p.Local()}
				if !ok || got != tt.want[i] {
					t.Errorf("Exact(%s) = %+v, %v; want %+v", v, got, ok, tt.want[i])
				}
			}
		})
	}
}

// TestCapturedParam checks that the cell of a captured parameter is
// known as the parameter unless the closure assigns it.
func TestCapturedParam(t *testing.T) {
	pkg, _ := build(t, namerSrc)
	for fn, want := range map[string]bool{"(*outer).closure": true, "(*outer).reassigned": false} {
		f := function(t, pkg, fn)
		var cell ssa.Value
		for _, instr := range f.Blocks[0].Instrs {
			if a, ok := instr.(*ssa.Alloc); ok {
				cell = a
			}
		}
		if got := CapturedParam(cell); (got == f.Params[0]) != want || !want && got != nil {
			t.Errorf("%s: CapturedParam = %v, want the receiver: %v", fn, got, want)
		}
	}
}
