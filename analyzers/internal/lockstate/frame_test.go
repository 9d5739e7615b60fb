package lockstate

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

const frameSrc = `package p

import "sync"

type inner struct {
	mu sync.Mutex
	n  int
}

type outer struct {
	mu    sync.Mutex
	inner inner
	ptr   *inner
}

type view struct{ o *outer }

var G outer

func (i *inner) do()      { i.mu.Lock() }
func (i inner) peek() int { return i.n }
func (v view) lock()      { v.o.mu.Lock() }

func (c *outer) run() {
	c.inner.do()
	c.ptr.do()
	c.inner.peek()
	view{c}.lock()
	var in inner
	in.do()
	G.inner.do()
	f := func() { c.mu.Lock() }
	f()
}
`

// frames returns the static calls of fn, in order, with their frames.
func frames(fn *ssa.Function) ([]*ssa.Call, []*Frame) {
	n := NewNamer(fn)
	var cs []*ssa.Call
	var frs []*Frame
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			var bindings []ssa.Value
			if mc, ok := c.Call.Value.(*ssa.MakeClosure); ok {
				bindings = mc.Bindings
			}
			cs = append(cs, c)
			frs = append(frs, CallFrame(n, c.Call.Args, bindings))
		}
	}
	return cs, frs
}

// TestFrameLoc checks how the callees' locations map onto the caller's
// at each call of run.
func TestFrameLoc(t *testing.T) {
	pkg, _ := build(t, frameSrc)
	calls, frs := frames(function(t, pkg, "(*outer).run"))
	type mapping struct{ callee, caller string }
	want := [][]mapping{
		// c.inner.do(): the receiver is the field in place.
		{{"$0.mu", "$0.inner.mu"}, {"$0", "$0.inner"}, {"$0.n", "$0.inner.n"}},
		// c.ptr.do(): the receiver is the object ptr points to.
		{{"$0.mu", "$0.ptr->mu"}, {"$0", "$0.ptr->"}},
		// c.inner.peek(): a value receiver is loaded from the field;
		// its fields are the field's, in place.
		{{"$0.n", "$0.inner.n"}, {"$0", "$0.inner"}},
		// view{c}.lock(): the wrapper is local; what its field points
		// to is the caller's receiver.
		{{"$0.o->mu", "$0.mu"}, {"$0.o", ""}, {"$0", ""}},
		// in.do(): a local variable of the caller.
		{{"$0.mu", ""}},
		// G.inner.do(): a package variable.
		{{"$0.mu", "@example.com/p.G.inner.mu"}, {"@example.com/p.G.mu", "@example.com/p.G.mu"}},
		// f(): the closure reaches the receiver through the cell it
		// captures.
		{{"$f0->mu", "$0.mu"}, {"$f0", ""}, {"$f1->mu", ""}, {"$1.x", ""}, {"%t3.mu", ""}},
	}
	if len(calls) != len(want) {
		t.Fatalf("%d calls, want %d", len(calls), len(want))
	}
	for i, c := range calls {
		for _, m := range want[i] {
			if got := strings.Join(frs[i].Loc(m.callee), " | "); got != m.caller {
				t.Errorf("%s: Loc(%s) = %q, want %q", c, m.callee, got, m.caller)
			}
		}
	}
}

// TestFrameCallee checks the frame against the callees' own names of
// their locks: the lock each callee takes, named by its namer, mapped
// through the call.
func TestFrameCallee(t *testing.T) {
	pkg, _ := build(t, frameSrc)
	calls, frs := frames(function(t, pkg, "(*outer).run"))
	type want struct {
		loc                 string // the summaries' policy (Loc)
		key, display, class string // the exact policy (Exact)
		ok                  bool
	}
	wants := map[int]want{
		0: {"$0.inner.mu", "$0.inner.mu", "c.inner.mu", "example.com/p.inner.mu", true},
		1: {"$0.ptr->mu", "$0.ptr->.mu", "c.ptr.mu", "example.com/p.inner.mu", true},
		// The value receiver v is spilled to a local variable (its
		// field is addressed): both policies name the spill as the
		// receiver ("$0.o->.mu"). The caller passes a composite
		// literal: the summaries' policy sees c stored in its field,
		// the exact policy names the literal, a local of the caller.
		3: {"$0.mu", "%t12->.o->.mu", "the local value.o.mu", "example.com/p.outer.mu", true},
		4: {"", "%t17.mu", "in.mu", "example.com/p.inner.mu", true},
		5: {"@example.com/p.G.inner.mu", "@example.com/p.G.inner.mu", "G.inner.mu", "example.com/p.inner.mu", true},
		// The closure's cell of the captured receiver is the receiver.
		6: {"$0.mu", "$0.mu", "c.mu", "example.com/p.outer.mu", true},
	}
	for i, c := range calls {
		w, ok := wants[i]
		if !ok {
			continue
		}
		callee := c.Call.StaticCallee()
		locks := calls0(callee)
		if len(locks) != 1 {
			t.Fatalf("%s: %d lock calls", callee, len(locks))
		}
		cn := NewNamer(callee)
		lock := LockCall(&locks[0].Call).Lock
		var locs []string
		for _, p := range cn.Paths(lock) {
			locs = append(locs, frs[i].Loc(p.Str)...)
		}
		if got := strings.Join(locs, " | "); got != w.loc {
			t.Errorf("%s: the lock of %s is %q in the caller, want %q", c, callee, got, w.loc)
		}
		p, _ := cn.Exact(lock)
		q, ok := frs[i].Exact(p)
		if got := (want{w.loc, q.Key(), q.Display, q.Class, ok}); got != w {
			t.Errorf("%s: Exact(%s) = %+v, want %+v", c, p.Key(), got, w)
		}
	}
}

// TestExactValueReceiver checks that the exact policy names a lock
// reached through a pointer field of a value receiver by the receiver,
// as it does for a pointer receiver, although the receiver is spilled
// to a local variable: not local, and the same path in the method that
// takes it (lock), in a caller that releases it itself (run), and
// mapped from lock's frame onto run's. (A receiver the method writes
// to is a copy of its own, and stays local, in both policies.)
func TestExactValueReceiver(t *testing.T) {
	pkg, _ := build(t, `package p

import "sync"

type T struct{ mu sync.Mutex }

type S struct{ p *T }

func (s S) lock() { s.p.mu.Lock() }

func (s S) run() {
	s.lock()
	s.p.mu.Unlock()
}
`)
	type path struct{ key, display, class string }
	want := path{"$0.p->.mu", "s.p.mu", "example.com/p.T.mu"}
	check := func(what string, p ExactPath, ok bool) {
		t.Helper()
		got := path{p.Key(), p.Display, p.Class}
		if !ok || got != want || p.Local() {
			t.Errorf("%s: %+v (ok %v, local %v), want %+v", what, got, ok, p.Local(), want)
		}
	}
	lock := function(t, pkg, "(S).lock")
	locks := calls0(lock)
	if len(locks) != 1 {
		t.Fatalf("lock: %d lock calls", len(locks))
	}
	inLock, ok := NewNamer(lock).Exact(LockCall(&locks[0].Call).Lock)
	check("the lock in lock", inLock, ok)

	run := function(t, pkg, "(S).run")
	unlocks := calls0(run)
	if len(unlocks) != 1 {
		t.Fatalf("run: %d lock calls", len(unlocks))
	}
	p, ok := NewNamer(run).Exact(LockCall(&unlocks[0].Call).Lock)
	check("the unlock in run", p, ok)

	calls, frs := frames(run)
	for i, c := range calls {
		if c.Call.StaticCallee() == lock {
			p, ok := frs[i].Exact(inLock)
			check("lock's lock in run", p, ok)
		}
	}
}

// TestFrameInCallee checks how a lock of the caller is named in its
// callees' terms: through the parameter or the free variable (of a bound
// method) that holds the object it is in, by the callee's names; a
// package variable as it is; not at all where no value passed leads to
// it.
func TestFrameInCallee(t *testing.T) {
	pkg, _ := build(t, `package p

import "sync"

type T struct{ mu sync.Mutex }

type O struct{ t *T }

var G T

func lock(n int, o *O) { o.t.mu.Lock() }

func other(n int) {}

func (o *O) lk() { o.t.mu.Lock() }

func (x *O) run() {
	x.t.mu.Unlock()
	G.mu.Unlock()
	lock(1, x)
	f := x.lk
	f()
	other(2)
}
`)
	run := function(t, pkg, "(*O).run")
	ops := calls0(run)
	if len(ops) != 2 {
		t.Fatalf("run: %d lock calls", len(ops))
	}
	n := NewNamer(run)
	mu, ok1 := n.Exact(LockCall(&ops[0].Call).Lock)
	g, ok2 := n.Exact(LockCall(&ops[1].Call).Lock)
	if !ok1 || !ok2 || mu.Key() != "$0.t->.mu" || g.Key() != "@example.com/p.G.mu" {
		t.Fatalf("run's locks: %q %q, want $0.t->.mu @example.com/p.G.mu", mu.Key(), g.Key())
	}
	type path struct{ key, display, class string }
	want := map[string][2]path{
		"lock":     {{"$1.t->.mu", "o.t.mu", "example.com/p.T.mu"}, {"@example.com/p.G.mu", "G.mu", "@example.com/p.G.mu"}},
		"lk$bound": {{"$f0.t->.mu", "recv.t.mu", "example.com/p.T.mu"}, {"@example.com/p.G.mu", "G.mu", "@example.com/p.G.mu"}},
	}
	calls, frs := frames(run)
	seen := 0
	for i, c := range calls {
		var callee *ssa.Function
		switch v := c.Call.Value.(type) {
		case *ssa.Function:
			callee = v
		case *ssa.MakeClosure:
			callee = v.Fn.(*ssa.Function)
		}
		if callee == nil || LockCall(&c.Call).Kind != OpNone {
			continue
		}
		w, ok := want[callee.Name()]
		if !ok {
			// other: no value passed holds the lock.
			if q, ok := frs[i].InCallee(mu, callee); ok {
				t.Errorf("%s: InCallee(%s) = %q, want none", callee.Name(), mu.Key(), q.Key())
			}
			continue
		}
		seen++
		for j, p := range []ExactPath{mu, g} {
			q, ok := frs[i].InCallee(p, callee)
			if got := (path{q.Key(), q.Display, q.Class}); !ok || got != w[j] {
				t.Errorf("%s: InCallee(%s) = %+v (ok %v), want %+v", callee.Name(), p.Key(), got, ok, w[j])
			}
		}
	}
	if seen != 2 {
		t.Errorf("%d calls of lock and the bound method, want 2", seen)
	}
}

// calls0 returns the lock operations' calls of fn.
func calls0(fn *ssa.Function) []*ssa.Call {
	var out []*ssa.Call
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(*ssa.Call); ok && LockCall(&c.Call).Kind != OpNone {
				out = append(out, c)
			}
		}
	}
	return out
}

// TestFrameBindings checks the frame's view of a closure's bindings:
// the cell of the captured receiver holds the caller's $0.
func TestFrameBindings(t *testing.T) {
	pkg, _ := build(t, frameSrc)
	calls, frs := frames(function(t, pkg, "(*outer).run"))
	fr := frs[len(calls)-1]
	if len(fr.Binds) != 1 || showPaths(fr.Binds[0]) != "$0" || len(fr.Cells) != 1 || !fr.Cells[0] {
		t.Errorf("closure frame: Binds %v, Cells %v; want [[$0]] [true]", fr.Binds, fr.Cells)
	}
	if fr.Args != nil {
		t.Errorf("closure frame: Args %v, want none", fr.Args)
	}
	// The value the closure loads from its cell is the receiver.
	if got := showPaths(fr.Value(Path{Str: "$f0", Loaded: true})); got != "$0" {
		t.Errorf("Value($f0 loaded) = %s, want $0", got)
	}
}
