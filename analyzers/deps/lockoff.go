package deps

import (
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A lock-off switch is a method that turns the type's own
// synchronisation off: it writes a field that the other methods test
// before they lock, taking the lock on one branch only (if !c.unsafe {
// c.mu.Lock() }), or its documentation says it disables the locking. The
// calls that follow it race by the caller's choice, so depcon test never
// calls it (see Method.LockOff).

// lockOffDoc matches the documentation of a method that turns the type's
// synchronisation off.
var lockOffDoc = regexp.MustCompile(`(?i)\b(disables?|turns? off|switch(es)? off|skips?|removes?|without)\b[^.]{0,40}\b(locking|locks|mutex(es)?|synchroni[sz]ation|thread[- ]safety|concurrency safety)\b|` +
	`\b(no longer|not) (be )?(thread[- ]safe|safe for concurrent use|synchroni[sz]ed|goroutine[- ]safe)\b`)

// lockOff returns why the method fn is a lock-off switch, or "": gates
// are the fields of the receiver that some method tests before locking
// (see lockGates).
func lockOff(fn *ssa.Function, gates map[*types.Var]string) string {
	if fn == nil || fn.Synthetic != "" {
		return ""
	}
	if phrase := lockOffDoc.FindString(strings.Join(strings.Fields(funcDoc(fn)), " ")); phrase != "" {
		return "doc: " + strings.ToLower(phrase)
	}
	if len(gates) == 0 || len(fn.Params) == 0 {
		return ""
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if f := recvField(st.Addr, fn.Params[0]); f != nil && gates[f] != "" {
				return "it writes " + f.Name() + ", which " + gates[f] + " tests to skip its lock"
			}
		}
	}
	return ""
}

// lockGates returns the fields of the receiver that a method of fns tests
// before it locks, taking the lock on one branch of the test only, with
// the name of one such method.
func lockGates(fns []*ssa.Function) map[*types.Var]string {
	gates := map[*types.Var]string{}
	for _, fn := range fns {
		if fn == nil || len(fn.Params) == 0 || fn.Blocks == nil {
			continue
		}
		var locks []*ssa.BasicBlock
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if isLockCall(instr) {
					locks = append(locks, b)
					break
				}
			}
		}
		if len(locks) == 0 {
			continue
		}
		for _, b := range fn.Blocks {
			ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok || len(b.Succs) != 2 {
				continue
			}
			f := testedField(ifi.Cond, fn.Params[0])
			if f == nil || gates[f] != "" {
				continue
			}
			for _, l := range locks {
				// The lock is taken on one branch, after which the
				// code joins the other: the work is done either way,
				// with the lock or without (a test that returns early,
				// as of a closed flag, is no switch).
				for i, s := range b.Succs {
					if s.Dominates(l) && !b.Succs[1-i].Dominates(l) && lockstate.Reaches(l, b.Succs[1-i]) {
						gates[f] = fn.Name()
					}
				}
				if gates[f] != "" {
					break
				}
			}
		}
	}
	return gates
}

// testedField returns the boolean field of the receiver recv that cond
// tests (c.unsafe, !c.unsafe, c.unsafe == false), or nil.
func testedField(cond ssa.Value, recv *ssa.Parameter) *types.Var {
	switch v := cond.(type) {
	case *ssa.UnOp:
		if v.Op == token.NOT {
			return testedField(v.X, recv)
		}
		if v.Op == token.MUL {
			if f := recvField(v.X, recv); f != nil && types.Identical(f.Type().Underlying(), types.Typ[types.Bool]) {
				return f
			}
		}
	case *ssa.BinOp:
		if v.Op == token.EQL || v.Op == token.NEQ {
			if _, ok := v.Y.(*ssa.Const); ok {
				return testedField(v.X, recv)
			}
		}
	}
	return nil
}

// recvField returns the field of the receiver recv that addr is the
// address of (recv.f), or nil.
func recvField(addr ssa.Value, recv *ssa.Parameter) *types.Var {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok || fa.X != recv {
		return nil
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	return st.Field(fa.Field)
}

// isLockCall reports whether instr calls a Lock or RLock method.
func isLockCall(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	name := ""
	if call.Call.IsInvoke() {
		name = call.Call.Method.Name()
	} else if f := call.Call.StaticCallee(); f != nil {
		name = f.Name()
	}
	return name == "Lock" || name == "RLock"
}
