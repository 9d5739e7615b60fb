package deps

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A lock-off switch is a method that turns the type's own
// synchronisation off: it writes a field that the other methods test
// before they lock, taking the lock on one branch only (if !c.unsafe {
// c.mu.Lock() }), or its documentation says it disables the locking. The
// calls that follow it race by the caller's choice, so depcon test never
// calls it (see Method.LockOff).

// lockOff returns why method m is a lock-off switch, or "": gates are
// the normalized locations that some method tests before locking (see
// lockGates). The write may be the method's own or a callee's (SetNoLock
// calling mu.Disable()), as its summary has it.
func lockOff(m *method, gates map[string]string) string {
	fn := m.m.Func
	if fn == nil || fn.Synthetic != "" {
		return ""
	}
	if phrase := contract.LockOff(m.doc); phrase != "" {
		return "doc: " + strings.ToLower(phrase)
	}
	for _, a := range m.accesses {
		if !a.a.Write || a.call {
			continue
		}
		for gate, by := range gates {
			if a.loc == gate {
				return "it writes " + display(m, a.a.Loc) + ", which " + by + " tests to skip its lock"
			}
		}
	}
	return ""
}

// lockGates returns the locations of an object of type t, normalized
// ("T.nolock", "T.mu.disabled"), that a method tests before it locks,
// taking the lock on one branch of the test only, each with the name of
// one such method: the fields of t that its methods fns test, and those
// of a struct of its package held in a field of t that the struct's own
// methods test (logrus's Logger holds a MutexWrap whose Lock locks
// unless disabled).
func lockGates(t types.Type, fns []*ssa.Function) map[string]string {
	gates := map[string]string{}
	for f, by := range fieldGates(fns) {
		gates["T."+f.Name()] = by
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || len(fns) == 0 || fns[0] == nil {
		return gates
	}
	prog := fns[0].Prog
	for i := range st.NumFields() {
		f := st.Field(i)
		ft, sep := f.Type(), "."
		if p, ok := types.Unalias(ft).(*types.Pointer); ok {
			ft, sep = p.Elem(), "->"
		}
		n, ok := types.Unalias(ft).(*types.Named)
		if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg() != f.Pkg() || types.IsInterface(n) {
			continue
		}
		mset := prog.MethodSets.MethodSet(types.NewPointer(n))
		var methods []*ssa.Function
		for j := range mset.Len() {
			if fn := prog.MethodValue(mset.At(j)); fn != nil {
				methods = append(methods, fn)
			}
		}
		for g, by := range fieldGates(methods) {
			gates["T."+f.Name()+sep+g.Name()] = n.Obj().Name() + "." + by
		}
	}
	return gates
}

// fieldGates returns the fields of the receiver that a method of fns
// tests before it locks, taking the lock on one branch of the test only,
// with the name of one such method.
func fieldGates(fns []*ssa.Function) map[*types.Var]string {
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
				// as of a closed flag, is no switch). The join is not
				// the loop back to the test: a retry loop that checks
				// a flag, then locks, refuses while it is set.
				for i, s := range b.Succs {
					if s.Dominates(l) && !b.Succs[1-i].Dominates(l) && lockstate.Reaches(l, b.Succs[1-i]) &&
						!lockstate.Reaches(l, b) {
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
