package lockstate

import (
	"go/token"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// The Engine's reading of lock operations, run with two lattices: the
// comments give, on a line with a lock operation, a call or a return,
// the locks that must be held before it ("must:") and the ways each lock
// may be ("may:", E untouched, H held, N released), by the exact policy's
// keys.
const engineSrc = `package p

import "sync"

type T struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	other sync.Mutex
	lockC chan struct{}
	quit  chan struct{}
	n     int
}

func NewT() *T { return &T{lockC: make(chan struct{}, 1), quit: make(chan struct{})} }

func (t *T) locks(c bool) bool {
	t.mu.Lock() // must: | may:
	defer t.mu.Unlock()
	if c {
		t.other.Lock() // must: $0.mu | may: $0.mu:H
	}
	if t.rw.TryRLock() { // must: $0.mu | may: $0.mu:H $0.other:EH
		t.n++
		t.rw.RUnlock() // must: $0.mu $0.rw | may: $0.mu:H $0.other:EH $0.rw:H
	}
	ok := t.rw.TryLock() // must: $0.mu | may: $0.mu:H $0.other:EH $0.rw:EN
	go t.other.Unlock()  // must: $0.mu | may: $0.mu:H $0.other:EH $0.rw:EHN
	return ok            // must: | may: $0.mu:N $0.other:EHN $0.rw:EHN
}

func (t *T) journal() bool {
	select { // must: | may:
	case t.lockC <- struct{}{}:
	case <-t.quit:
		return false // must: | may:
	}
	t.n++
	<-t.lockC   // must: $0.lockC | may: $0.lockC:H
	return true // must: | may: $0.lockC:N
}

func (t *T) try() {
	select { // must: | may:
	case t.lockC <- struct{}{}:
		t.n++
	default:
		return // must: | may:
	}
	<-t.lockC // must: $0.lockC | may: $0.lockC:H
}

func (t *T) send() {
	t.lockC <- struct{}{} // must: | may:
	t.n++
	<-t.lockC // must: $0.lockC | may: $0.lockC:H
}

func (t *T) fail(c bool) {
	t.mu.Lock() // must: | may:
	if c {
		panic("fail")
	}
	t.mu.Unlock() // must: $0.mu | may: $0.mu:H
}
`

// lockSet is the State of both toy lattices: the locks that must be
// held, joined by intersection, or the ways each lock may be, joined by
// union.
type lockSet struct {
	may      bool
	reach    bool
	ways     map[string]string // a lock's ways: "H" (must); letters of "EHN" (may)
	deferred uint64
}

func (s *lockSet) Reachable() bool { return s.reach }
func (s *lockSet) End()            { s.reach = false }

func (s *lockSet) Clone() *lockSet {
	c := *s
	c.ways = maps.Clone(s.ways)
	return &c
}

func (s *lockSet) get(k string) string {
	if w, ok := s.ways[k]; ok {
		return w
	}
	return "E"
}

func (s *lockSet) Join(o *lockSet) bool {
	switch {
	case !o.reach:
		return false
	case !s.reach:
		*s = *o.Clone()
		return true
	}
	old := s.String()
	if s.may {
		for k := range o.ways {
			s.ways[k] = union(s.get(k), o.get(k))
		}
		for k := range s.ways {
			s.ways[k] = union(s.get(k), o.get(k))
		}
		s.deferred |= o.deferred
	} else {
		maps.DeleteFunc(s.ways, func(k, _ string) bool { return o.ways[k] == "" })
		s.deferred &= o.deferred
	}
	return s.String() != old
}

// union returns the letters of a and b, in the order of "EHN".
func union(a, b string) string {
	var out []byte
	for _, c := range []byte("EHN") {
		if strings.IndexByte(a, c) >= 0 || strings.IndexByte(b, c) >= 0 {
			out = append(out, c)
		}
	}
	return string(out)
}

func (s *lockSet) String() string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(s.ways)) {
		if s.may {
			out = append(out, k+":"+s.ways[k])
		} else {
			out = append(out, k)
		}
	}
	return strings.Join(out, " ")
}

// setOps applies the Engine's events to a lockSet, by the exact policy's
// names; it records the State before the instructions of the comments.
type setOps struct {
	n         *Namer
	chanLocks map[string]bool
	record    map[ssa.Instruction]string
}

func (o *setOps) Instr(s *lockSet, instr ssa.Instruction) {
	if o.record == nil {
		return
	}
	switch in := instr.(type) {
	case *ssa.Call, *ssa.Go, *ssa.Send, *ssa.Select, *ssa.Return:
		o.record[instr] = s.String()
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			o.record[instr] = s.String()
		}
	}
}

func (o *setOps) Lock(s *lockSet, _ ssa.Instruction, ev Event) {
	var p ExactPath
	var ok bool
	if ev.Chan {
		p, ok = ExactChanLock(o.n, o.chanLocks, ev.Lock)
	} else {
		p, ok = o.n.Exact(ev.Lock)
	}
	if !ok {
		return
	}
	k := p.Key()
	switch {
	case ev.Kind == Acquire || ev.Kind == Taken:
		s.ways[k] = "H"
	case !s.may && (ev.Kind == Release || ev.Kind == HandOff):
		delete(s.ways, k)
	case s.may && ev.Kind == Release:
		s.ways[k] = "N"
	case s.may && ev.Kind == HandOff:
		s.ways[k] = union(s.get(k), "N")
	case s.may && ev.Kind == MayAcquire:
		s.ways[k] = union(s.get(k), "H")
	}
}

func (o *setOps) Call(*lockSet, ssa.Instruction, *ssa.CallCommon, How) {}

func (o *setOps) Defer(s *lockSet, i int, _ *ssa.Defer) { s.deferred |= 1 << i }

func (o *setOps) Runs(s *lockSet, i int) bool { return s.deferred&(1<<i) != 0 }

// TestEngine runs the Engine over the functions of engineSrc with the
// must-held and the may-held lattice, and compares the States before
// their lock operations, calls and returns with the source's comments:
// Lock and Unlock, a TryLock on the branch where it succeeded and one
// whose result is kept, a deferred Unlock, an Unlock handed to a
// goroutine, and a channel used as a mutex, taken by a send, in a
// select's case and in a select with a default case.
func TestEngine(t *testing.T) {
	pkg, fset := build(t, engineSrc)
	chanLocks := FindChanLocks(functions(pkg))
	if !maps.Equal(chanLocks, map[string]bool{"example.com/p.T.lockC": true}) {
		t.Fatalf("channel locks %v, want example.com/p.T.lockC", chanLocks)
	}
	want := map[string]map[int]string{"must": {}, "may": {}}
	for i, line := range strings.Split(engineSrc, "\n") {
		_, c, ok := strings.Cut(line, "// must:")
		if !ok {
			continue
		}
		must, may, _ := strings.Cut(c, "| may:")
		want["must"][i+1] = strings.TrimSpace(must)
		want["may"][i+1] = strings.TrimSpace(may)
	}
	for _, lattice := range []string{"must", "may"} {
		got := map[int]string{}
		for _, name := range []string{"(*T).locks", "(*T).journal", "(*T).try", "(*T).send", "(*T).fail"} {
			fn := function(t, pkg, name)
			ops := &setOps{n: NewNamer(fn), chanLocks: chanLocks}
			e := NewEngine[*lockSet](fn, ops, chanLocks)
			in := make([]*lockSet, len(fn.Blocks))
			for i := range in {
				in[i] = &lockSet{may: lattice == "may", ways: map[string]string{}}
			}
			in[0].reach = true
			Solve(fn, in, e)
			ops.record = map[ssa.Instruction]string{}
			for _, b := range fn.Blocks {
				if in[b.Index].Reachable() {
					e.Block(b, in[b.Index].Clone())
				}
			}
			for instr, s := range ops.record {
				line := fset.Position(instr.Pos()).Line
				if _, ok := want[lattice][line]; !ok {
					continue
				}
				if prev, ok := got[line]; ok && prev != s {
					t.Errorf("%s, line %d: two states, %q and %q", lattice, line, prev, s)
				}
				got[line] = s
			}
		}
		for _, line := range slices.Sorted(maps.Keys(want[lattice])) {
			if g, ok := got[line]; !ok {
				t.Errorf("%s, line %d: no instruction reached", lattice, line)
			} else if g != want[lattice][line] {
				t.Errorf("%s, line %d: %q, want %q", lattice, line, g, want[lattice][line])
			}
		}
	}
}

// TestEnginePanic checks that a panic ends the path, in both lattices:
// no path reaches the end of the block that panics.
func TestEnginePanic(t *testing.T) {
	pkg, _ := build(t, engineSrc)
	fn := function(t, pkg, "(*T).fail")
	for _, may := range []bool{false, true} {
		e := NewEngine[*lockSet](fn, &setOps{n: NewNamer(fn)}, nil)
		panics := 0
		for _, b := range fn.Blocks {
			if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic); !ok {
				continue
			}
			panics++
			if e.Block(b, &lockSet{may: may, reach: true, ways: map[string]string{}}).Reachable() {
				t.Errorf("may %v: the end of block %d, which panics, is reachable", may, b.Index)
			}
		}
		if panics != 1 {
			t.Fatalf("%d blocks panic, want 1", panics)
		}
	}
}
