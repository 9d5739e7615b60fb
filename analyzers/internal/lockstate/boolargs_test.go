package lockstate

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

const boolArgsSrc = `package p

import "sync"

type T struct {
	mu sync.Mutex
	n  int
}

func (t *T) get(locked bool) int {
	if !locked {
		t.mu.Lock()
	}
	n := t.n
	t.touch()
	if locked == false {
		t.mu.Unlock()
	}
	return n
}

func (t *T) touch() {}

func (t *T) add(d int, held, twice bool) {
	if held != true {
		t.mu.Lock()
		defer t.mu.Unlock()
	}
	t.n += d
}

// keep returns its flag: no if tests it.
func keep(b bool) bool { return b }

func (t *T) calls(v bool) {
	t.get(true)
	t.get(false)
	t.get(v)
	t.add(1, false, true)
	t.add(2, v, false)
	keep(true)
}
`

// TestBoolArgs checks which calls of calls have constant arguments for
// bool parameters their callee tests directly: get's, by negation and
// by comparison, add's held (twice is tested by no if), not keep's.
func TestBoolArgs(t *testing.T) {
	pkg, _ := build(t, boolArgsSrc)
	var got []string
	for _, b := range function(t, pkg, "(*T).calls").Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := call.Call.StaticCallee()
			k := BoolArgs(callee, call.Call.Args)
			if !k.IsZero() && k.Fn != callee {
				t.Errorf("%s: Consts of %s", callee.Name(), k.Fn.Name())
			}
			got = append(got, callee.Name()+"("+k.Key+")")
		}
	}
	want := "get($1=true) get($1=false) get() add($2=false) add() keep()"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("BoolArgs: %s, want %s", g, want)
	}
}

// TestEngineAssume runs the Engine over get with no assumption and
// specialised for each of its calls' constants, in both lattices, and
// compares the State before its call of touch: the lock is held on one
// path of two, on none when the caller holds it (true), on the only
// path when it does not (false).
func TestEngineAssume(t *testing.T) {
	pkg, _ := build(t, boolArgsSrc)
	get := function(t, pkg, "(*T).get")
	consts := map[string]Consts{}
	for _, call := range calls(function(t, pkg, "(*T).calls"), "get") {
		k := BoolArgs(get, call.Call.Args)
		consts[k.Key] = k
	}
	touch := calls(get, "touch")[0]
	for _, tc := range []struct{ key, must, may string }{
		{"", "", "$0.mu:EH"},
		{"$1=true", "", ""},
		{"$1=false", "$0.mu", "$0.mu:H"},
	} {
		for _, may := range []bool{false, true} {
			ops := &setOps{n: NewNamer(get)}
			e := NewEngine[*lockSet](get, ops, nil)
			e.Assume(consts[tc.key])
			in := make([]*lockSet, len(get.Blocks))
			for i := range in {
				in[i] = &lockSet{may: may, ways: map[string]string{}}
			}
			in[0].reach = true
			Solve(get, in, e)
			ops.record = map[ssa.Instruction]string{}
			for _, b := range get.Blocks {
				if in[b.Index].Reachable() {
					e.Block(b, in[b.Index].Clone())
				}
			}
			want := tc.must
			if may {
				want = tc.may
			}
			if got := ops.record[touch]; got != want {
				t.Errorf("Consts %q, may %v: %q before touch, want %q", tc.key, may, got, want)
			}
		}
	}
}

const decidingSrc = `package p

import "sync"

type T struct {
	mu sync.Mutex
	n  int
}

// get's locked decides its Lock and Unlock; verbose decides an access.
func (t *T) get(locked, verbose bool) int {
	if !locked {
		t.mu.Lock()
		defer t.mu.Unlock()
	}
	if verbose {
		t.n++
	}
	return t.n
}

// set's plain decides only whether the branch without a lock is taken:
// the Lock is on the other branch alone.
func (t *T) set(plain bool, v int) {
	if plain {
		t.n = v
	} else {
		t.mu.Lock()
		t.n = v
		t.mu.Unlock()
	}
}
`

// TestDeciding checks which bool parameters decide a lock operation:
// those whose if leads to a lock operation on one branch only.
func TestDeciding(t *testing.T) {
	pkg, _ := build(t, decidingSrc)
	locks := func(instr ssa.Instruction) bool {
		c, ok := instr.(ssa.CallInstruction)
		return ok && LockCall(c.Common()).Kind != OpNone
	}
	for name, want := range map[string][]bool{
		"(*T).get": {false, true, false},
		"(*T).set": {false, true, false},
	} {
		got := Deciding(function(t, pkg, name), locks)
		if !slices.Equal(got, want) {
			t.Errorf("Deciding(%s) = %v, want %v", name, got, want)
		}
	}
	k := Consts{Fn: function(t, pkg, "(*T).get"), vals: map[int]bool{1: true, 2: false}, Key: "$1=true,$2=false"}
	if got := k.Only(func(i int) bool { return i == 1 }); got.Key != "$1=true" || got.IsZero() {
		t.Errorf("Only($1) = %q", got.Key)
	}
	if got := k.Only(func(int) bool { return false }); !got.IsZero() {
		t.Errorf("Only(none) = %q, want zero", got.Key)
	}
}
