package lockstate

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

const lockOpsSrc = `package p

import "sync"

type S struct {
	mu sync.Mutex
	rw sync.RWMutex
}

type E struct{ sync.Mutex }

type own struct{}

func (own) Lock()   {}
func (own) Unlock() {}

type lockN interface{ Lock(int) }

type tryLocker interface {
	sync.Locker
	TryLock() bool
}

func ops(s *S, e *E, l sync.Locker, c *sync.Cond, wg *sync.WaitGroup, o own, n lockN, tl tryLocker) {
	s.mu.Lock()
	s.mu.Unlock()
	s.rw.RLock()
	s.rw.RUnlock()
	s.rw.Lock()
	s.rw.Unlock()
	_ = s.mu.TryLock()
	_ = s.rw.TryRLock()
	_ = s.rw.TryLock()
	e.Lock()
	l.Lock()
	l.Unlock()
	s.rw.RLocker()
	c.Wait()
	c.L.Lock()
	wg.Wait()
	o.Lock()
	n.Lock(1)
	_ = tl.TryLock()
	defer s.mu.Unlock()
}

func try(s *S) {
	if s.mu.TryLock() {
		s.mu.Unlock()
	}
	if !s.rw.TryRLock() {
		return
	}
	s.rw.RUnlock()
	ok := s.mu.TryLock()
	if ok {
		s.mu.Unlock()
	}
	if s.mu.TryLock() && s.rw.TryLock() {
		return
	}
}

func sel(a, b chan int) int {
	select {
	case x := <-a:
		return x
	case b <- 1:
		return 0
	}
}

func selDefault(a chan int, k int) int {
	if k == 0 {
		return 1
	}
	select {
	case x := <-a:
		return x
	default:
		return 0
	}
}

func loop(n int) {
	for i := 0; i < n; i++ {
		use(i)
	}
}

func use(any) {}
`

// showOp renders a lock operation, naming the lock with n: "Lock W
// s.mu", "none".
func showOp(n *Namer, op LockOp) string {
	if op.Kind == OpNone {
		if op.Lock != nil {
			return "none, with a lock"
		}
		return "none"
	}
	kind := map[OpKind]string{OpLock: "Lock", OpUnlock: "Unlock", OpTryLock: "TryLock"}[op.Kind]
	p, _ := n.Exact(op.Lock)
	return fmt.Sprintf("%s %s %s", kind, op.Mode, p.Display)
}

// TestLockCall checks what each call of ops (and its deferred call)
// does to a lock.
func TestLockCall(t *testing.T) {
	pkg, _ := build(t, lockOpsSrc)
	fn := function(t, pkg, "ops")
	n := NewNamer(fn)
	var got []string
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				got = append(got, calleeName(c.Common())+": "+showOp(n, LockCall(c.Common())))
			}
		}
	}
	want := []string{
		"Lock: Lock W s.mu",
		"Unlock: Unlock W s.mu",
		"RLock: Lock R s.rw",
		"RUnlock: Unlock R s.rw",
		"Lock: Lock W s.rw",
		"Unlock: Unlock W s.rw",
		"TryLock: TryLock W s.mu",
		"TryRLock: TryLock R s.rw",
		"TryLock: TryLock W s.rw",
		"Lock: Lock W e.Mutex", // the embedded Mutex
		"Lock: Lock W l",       // through sync.Locker
		"Unlock: Unlock W l",
		"RLocker: none",    // RLocker itself locks nothing,
		"Wait: none",       // nor does Cond.Wait
		"Lock: Lock W c.L", // the Cond's Locker
		"Wait: none",
		"Lock: none",            // a Lock method of a type of another package than sync
		"Lock: none",            // an interface's Lock with a parameter
		"TryLock: none",         // TryLock through an interface: not known to lock
		"Unlock: Unlock W s.mu", // deferred
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("LockCall of ops' calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTryLockEdge checks the edges on which a TryLock succeeded: the
// true branch of an if on its result, whichever way the source spells
// the condition.
func TestTryLockEdge(t *testing.T) {
	pkg, _ := build(t, lockOpsSrc)
	fn := function(t, pkg, "try")
	n := NewNamer(fn)
	var got []string
	for _, b := range fn.Blocks {
		for i, succ := range b.Succs {
			call, op, ok := TryLockEdge(b, i)
			if !ok {
				if call != nil || op != (LockOp{}) {
					t.Errorf("edge %d->%d: TryLockEdge = %v, %v, false", b.Index, succ.Index, call, op)
				}
				continue
			}
			if op.Lock != call.Call.Args[0] {
				t.Errorf("edge %d->%d: lock %v, not the call's receiver", b.Index, succ.Index, op.Lock)
			}
			got = append(got, fmt.Sprintf("%s -> %s: %s", b.Comment, succ.Comment, showOp(n, op)))
		}
	}
	// The first TryLock's true branch runs the if's body; the negated
	// TryRLock's runs past the if's return (go/ssa swaps the branches);
	// the result held in a variable is the same; in a && the second
	// TryLock is tested on the first's success.
	want := []string{
		"entry -> if.then: TryLock W s.mu",
		"if.done -> if.done: TryLock R s.rw",
		"if.done -> if.then: TryLock W s.mu",
		"if.done -> cond.true: TryLock W s.mu",
		"cond.true -> if.then: TryLock W s.rw",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("TryLockEdge:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSelectCaseEdge checks the edges on which a select's case ran.
func TestSelectCaseEdge(t *testing.T) {
	pkg, _ := build(t, lockOpsSrc)
	for name, want := range map[string][]string{
		// Each case is the true branch of a comparison of the
		// select's index; the last else panics (a blocking select).
		"sel": {"entry -> select.body: case 0 <-a", "select.next -> select.body: case 1 b<-"},
		// The default is no case; an if on another integer is no select.
		"selDefault": {"if.done -> select.body: case 0 <-a"},
	} {
		fn := function(t, pkg, name)
		var got []string
		for _, b := range fn.Blocks {
			for i, succ := range b.Succs {
				sel, k, ok := SelectCaseEdge(b, i)
				if !ok {
					continue
				}
				st := sel.States[k]
				what := "<-" + st.Chan.Name()
				if st.Dir != types.RecvOnly {
					what = st.Chan.Name() + "<-"
				}
				got = append(got, fmt.Sprintf("%s -> %s: case %d %s", b.Comment, succ.Comment, k, what))
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: SelectCaseEdge:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestReaches checks reachability over a loop: the loop's blocks reach
// themselves, the entry and the exit do not.
func TestReaches(t *testing.T) {
	pkg, _ := build(t, lockOpsSrc)
	fn := function(t, pkg, "loop")
	block := map[string]*ssa.BasicBlock{}
	for _, b := range fn.Blocks {
		block[b.Comment] = b
	}
	for _, tt := range []struct {
		from, to string
		want     bool
	}{
		{"entry", "entry", false},
		{"entry", "for.loop", true},
		{"entry", "for.done", true},
		{"for.loop", "for.loop", true},
		{"for.body", "for.body", true},
		{"for.body", "for.done", true},
		{"for.done", "for.done", false},
		{"for.done", "for.loop", false},
		{"for.loop", "entry", false},
	} {
		from, to := block[tt.from], block[tt.to]
		if from == nil || to == nil {
			t.Fatalf("no block %s or %s in %s", tt.from, tt.to, fn)
		}
		if got := Reaches(from, to); got != tt.want {
			t.Errorf("Reaches(%s, %s) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestInstrPos checks the positions given to instructions: their own, or
// their first operand's, or the function's.
func TestInstrPos(t *testing.T) {
	pkg, fset := build(t, lockOpsSrc)
	fn := function(t, pkg, "loop")
	line := func(p token.Pos) int { return fset.Position(p).Line }
	var jump, call, ifi ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Jump:
				jump = instr
			case *ssa.Call:
				call = instr
			case *ssa.If:
				ifi = instr
			}
		}
	}
	if jump.Pos().IsValid() || InstrPos(jump, fn) != fn.Pos() {
		t.Errorf("InstrPos(jump) = line %d, want the function's (line %d)", line(InstrPos(jump, fn)), line(fn.Pos()))
	}
	if got, want := InstrPos(call, fn), call.Pos(); got != want || !want.IsValid() {
		t.Errorf("InstrPos(call) = line %d, want its own (line %d)", line(got), line(want))
	}
	// The loop's if has no position: its condition's (i < n) is used.
	if ifi.Pos().IsValid() {
		t.Fatalf("the if has a position")
	}
	cond := ifi.(*ssa.If).Cond.(*ssa.BinOp)
	if got := InstrPos(ifi, fn); got != cond.Pos() || fset.Position(got).Column != 16 {
		t.Errorf("InstrPos(if) = %s, want the condition's (%s)", fset.Position(got), fset.Position(cond.Pos()))
	}
}
