package lockstate

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// The expected states are written in the source: "// held: a b" on a
// line with a lock operation or a return lists the locks that must be
// held before it (by the exact policy's keys).
const solveSrc = `package p

import "sync"

type inner struct{ mu sync.Mutex }

type outer struct {
	mu    sync.Mutex
	inner inner
	ptr   *inner
}

var G struct{ mu sync.Mutex }

func (o *outer) solve(c bool, n int) {
	o.mu.Lock() // held:
	defer o.mu.Unlock()
	if c {
		o.inner.mu.Lock() // held: $0.mu
	} else {
		o.inner.mu.Lock() // held: $0.mu
		o.ptr.mu.Lock()   // held: $0.inner.mu $0.mu
	}
	o.ptr.mu.Unlock() // held: $0.inner.mu $0.mu
	for i := 0; i < n; i++ {
		G.mu.Lock()         // held: $0.mu
		o.inner.mu.Unlock() // held: $0.mu @example.com/p.G.mu
		G.mu.Unlock()       // held: $0.mu @example.com/p.G.mu
	}
	if G.mu.TryLock() { // held: $0.mu
		G.mu.Unlock() // held: $0.mu @example.com/p.G.mu
	}
	if n > 0 {
		return // held:
	}
	o.inner.mu.Lock() // held: $0.mu
	return            // held: $0.inner.mu
}

func loop(n int) {
	for i := 0; i < n; i++ {
	}
}
`

// mustHeld is a toy lattice: the set of locks that must be held, joined
// by intersection.
type mustHeld struct {
	reach bool
	held  map[string]bool
}

func (s *mustHeld) Reachable() bool { return s.reach }
func (s *mustHeld) End()            { s.reach = false }

func (s *mustHeld) Clone() *mustHeld {
	return &mustHeld{reach: s.reach, held: maps.Clone(s.held)}
}

func (s *mustHeld) Join(o *mustHeld) bool {
	switch {
	case !o.reach:
		return false
	case !s.reach:
		s.reach, s.held = true, maps.Clone(o.held)
		return true
	}
	changed := false
	for k := range s.held {
		if !o.held[k] {
			delete(s.held, k)
			changed = true
		}
	}
	return changed
}

func (s *mustHeld) String() string {
	return strings.Join(slices.Sorted(maps.Keys(s.held)), " ")
}

// mustTransfer locks and unlocks by the exact policy's keys; a return
// runs the deferred unlocks; the true branch of an if on a TryLock holds
// its lock. It records the state before each lock operation and return
// when record is set, and counts the blocks it runs.
type mustTransfer struct {
	n      *Namer
	record map[ssa.Instruction]string
	runs   map[*ssa.BasicBlock]int
}

func (t *mustTransfer) key(v ssa.Value) string {
	p, ok := t.n.Exact(v)
	if !ok {
		return "?"
	}
	return p.Key()
}

func (t *mustTransfer) Block(b *ssa.BasicBlock, s *mustHeld) *mustHeld {
	t.runs[b]++
	for _, instr := range b.Instrs {
		switch instr := instr.(type) {
		case *ssa.Call:
			op := LockCall(&instr.Call)
			if op.Kind == OpNone {
				continue
			}
			if t.record != nil {
				t.record[instr] = s.String()
			}
			switch op.Kind {
			case OpLock:
				s.held[t.key(op.Lock)] = true
			case OpUnlock:
				delete(s.held, t.key(op.Lock))
			}
		case *ssa.RunDefers:
			for _, d := range deferred(b.Parent()) {
				if op := LockCall(&d.Call); op.Kind == OpUnlock {
					delete(s.held, t.key(op.Lock))
				}
			}
		case *ssa.Return:
			if t.record != nil {
				t.record[instr] = s.String()
			}
		}
	}
	return s
}

func (t *mustTransfer) Edge(b *ssa.BasicBlock, i int, out *mustHeld) (*ssa.BasicBlock, *mustHeld) {
	if _, op, ok := TryLockEdge(b, i); ok {
		out = out.Clone()
		out.held[t.key(op.Lock)] = true
	}
	return b.Succs[i], out
}

func deferred(fn *ssa.Function) []*ssa.Defer {
	var out []*ssa.Defer
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// entryStates returns the states the blocks of fn are entered with: the
// entry block's, with nothing held; the others unreachable.
func entryStates(fn *ssa.Function) []*mustHeld {
	in := make([]*mustHeld, len(fn.Blocks))
	for i := range in {
		in[i] = &mustHeld{}
	}
	in[0] = &mustHeld{reach: true, held: map[string]bool{}}
	return in
}

// TestSolve solves the must-held locks of a function with a branch, a
// loop that releases a lock held on entry (its states are joined until
// they settle), a TryLock and a deferred unlock, and compares the states
// before its lock operations and returns with the source's comments.
func TestSolve(t *testing.T) {
	pkg, fset := build(t, solveSrc)
	fn := function(t, pkg, "(*outer).solve")
	want := map[int]string{}
	for i, line := range strings.Split(solveSrc, "\n") {
		if _, held, ok := strings.Cut(line, "// held:"); ok {
			want[i+1] = strings.TrimSpace(held)
		}
	}
	tr := &mustTransfer{n: NewNamer(fn), runs: map[*ssa.BasicBlock]int{}}
	in := entryStates(fn)
	Solve(fn, in, tr)
	// Run the blocks once more from their solution, recording.
	tr.record = map[ssa.Instruction]string{}
	for _, b := range fn.Blocks {
		if in[b.Index].Reachable() {
			tr.Block(b, in[b.Index].Clone())
		}
	}
	got := map[int]string{}
	for instr, held := range tr.record {
		line := fset.Position(instr.Pos()).Line
		if prev, ok := got[line]; ok && prev != held {
			t.Errorf("line %d: two states, %q and %q", line, prev, held)
		}
		got[line] = held
	}
	for _, line := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[line]; !ok {
			t.Errorf("line %d: no lock operation or return reached", line)
		} else if g != want[line] {
			t.Errorf("line %d: held %q, want %q", line, g, want[line])
		}
	}
	for line := range got {
		if _, ok := want[line]; !ok {
			t.Errorf("line %d: a state, and no comment", line)
		}
	}
	// The block that recovers from a panic was entered unreachable:
	// Solve never ran it.
	if fn.Recover == nil {
		t.Fatal("no recover block")
	}
	if in[fn.Recover.Index].Reachable() || tr.runs[fn.Recover] != 0 {
		t.Errorf("the recover block was run %d times", tr.runs[fn.Recover])
	}
}

// counter is a lattice of infinite height: every join changes it.
type counter struct{ n int }

func (c *counter) Reachable() bool      { return true }
func (c *counter) End()                 {}
func (c *counter) Clone() *counter      { return &counter{c.n} }
func (c *counter) Join(o *counter) bool { c.n = max(c.n, o.n+1); return true }

type countTransfer struct{ runs map[*ssa.BasicBlock]int }

func (t *countTransfer) Block(b *ssa.BasicBlock, s *counter) *counter {
	t.runs[b]++
	return s
}

func (t *countTransfer) Edge(b *ssa.BasicBlock, i int, out *counter) (*ssa.BasicBlock, *counter) {
	return b.Succs[i], out
}

// TestSolveRounds checks that Solve stops after MaxRounds rounds when
// the states do not settle, each round running every reachable block
// once.
func TestSolveRounds(t *testing.T) {
	pkg, _ := build(t, solveSrc)
	fn := function(t, pkg, "loop")
	in := make([]*counter, len(fn.Blocks))
	for i := range in {
		in[i] = &counter{}
	}
	tr := &countTransfer{runs: map[*ssa.BasicBlock]int{}}
	Solve(fn, in, tr)
	for _, b := range fn.Blocks {
		if tr.runs[b] != MaxRounds {
			t.Errorf("block %d (%s) run %d times, want %d", b.Index, b.Comment, tr.runs[b], MaxRounds)
		}
	}
}
