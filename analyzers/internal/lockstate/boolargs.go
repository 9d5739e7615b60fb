package lockstate

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A function whose lock operations depend on a bool parameter,
//
//	func (r *RB) readErr(locked bool) error {
//		if !locked {
//			r.mu.Lock()
//			defer r.mu.Unlock()
//		}
//		return r.err
//	}
//
// has, at a call that passes a constant for that parameter, the effect
// of its body with the branches the constant rules out removed: readErr
// called with true takes no lock and reads err under its caller's;
// called with false, it reads err under the lock it takes. The
// lock states of such a call are those of the callee specialised for
// the constants (Consts): BoolArgs tells which calls have one, an Engine
// that Assumes them leaves out the branches they rule out, and Specs
// memoises the specialisations of each function, a few at most.
//
// Only the bool parameters that an if tests directly are specialised
// on: the parameter itself, its negation, or its comparison with a
// constant is the if's condition.

// Consts are constant values of bool parameters of a function at a
// call: those of its parameters that the function tests directly (an
// if on the parameter) and that the call passes as constants. The zero
// Consts assume nothing.
type Consts struct {
	Fn *ssa.Function
	// vals holds the value of each parameter assumed, by index.
	vals map[int]bool
	// Key names the assumption, unique for Fn: "$1=true,$2=false".
	Key string
}

// IsZero reports whether k assumes nothing.
func (k Consts) IsZero() bool { return len(k.vals) == 0 }

// BoolArgs returns the Consts of a call of fn with args as its
// parameters: the constants args passes for the bool parameters that
// fn tests directly. It is zero when there are none, and when fn has no
// body.
func BoolArgs(fn *ssa.Function, args []ssa.Value) Consts {
	if fn == nil || fn.Blocks == nil || len(args) != len(fn.Params) {
		return Consts{}
	}
	var vals map[int]bool
	for i, p := range fn.Params {
		c, ok := args[i].(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.Bool || !isBool(p.Type()) || !testedByIf(p) {
			continue
		}
		if vals == nil {
			vals = map[int]bool{}
		}
		vals[i] = constant.BoolVal(c.Value)
	}
	return newConsts(fn, vals)
}

// newConsts returns the Consts of fn assuming vals, by parameter index
// (zero when vals is empty).
func newConsts(fn *ssa.Function, vals map[int]bool) Consts {
	if len(vals) == 0 {
		return Consts{}
	}
	var key strings.Builder
	for i := range fn.Params {
		v, ok := vals[i]
		if !ok {
			continue
		}
		if key.Len() > 0 {
			key.WriteByte(',')
		}
		key.WriteString("$" + strconv.Itoa(i) + "=" + strconv.FormatBool(v))
	}
	return Consts{Fn: fn, vals: vals, Key: key.String()}
}

// isBool reports whether values of t are booleans.
func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// testedByIf reports whether an if's condition is p, its negation or
// its comparison with a constant.
func testedByIf(p *ssa.Parameter) bool {
	var tested func(v ssa.Value, depth int) bool
	tested = func(v ssa.Value, depth int) bool {
		refs := v.Referrers()
		if refs == nil {
			return false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.If:
				return true
			case *ssa.UnOp:
				if depth == 0 && r.Op == token.NOT && tested(r, 1) {
					return true
				}
			case *ssa.BinOp:
				if depth == 0 && (r.Op == token.EQL || r.Op == token.NEQ) && (isConst(r.X) || isConst(r.Y)) && tested(r, 1) {
					return true
				}
			}
		}
		return false
	}
	return tested(p, 0)
}

func isConst(v ssa.Value) bool {
	_, ok := v.(*ssa.Const)
	return ok
}

// value returns the value of a condition under k: a parameter k
// assumes, its negation, or its comparison with a constant.
func (k Consts) value(v ssa.Value) (bool, bool) {
	switch v := v.(type) {
	case *ssa.Parameter:
		if v.Parent() != k.Fn {
			return false, false
		}
		for i, p := range k.Fn.Params {
			if p == v {
				b, ok := k.vals[i]
				return b, ok
			}
		}
	case *ssa.UnOp:
		if v.Op == token.NOT {
			if _, ok := v.X.(*ssa.Parameter); ok {
				b, ok := k.value(v.X)
				return !b, ok
			}
		}
	case *ssa.BinOp:
		if v.Op != token.EQL && v.Op != token.NEQ {
			return false, false
		}
		x, y := v.X, v.Y
		if isConst(x) {
			x, y = y, x
		}
		c, ok := y.(*ssa.Const)
		if _, param := x.(*ssa.Parameter); !ok || !param || c.Value == nil || c.Value.Kind() != constant.Bool {
			return false, false
		}
		b, ok := k.value(x)
		if !ok {
			return false, false
		}
		return (b == constant.BoolVal(c.Value)) == (v.Op == token.EQL), true
	}
	return false, false
}

// RuledOut reports whether k rules out the i-th out-edge of b: b ends
// in an if whose condition k decides the other way (the true branch is
// edge 0, the false branch edge 1).
func (k Consts) RuledOut(b *ssa.BasicBlock, i int) bool {
	if k.IsZero() || b.Parent() != k.Fn || len(b.Instrs) == 0 {
		return false
	}
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	v, ok := k.value(ifi.Cond)
	return ok && v != (i == 0)
}

// Only returns k restricted to the parameters for which keep is true.
func (k Consts) Only(keep func(i int) bool) Consts {
	vals := map[int]bool{}
	for i, v := range k.vals {
		if keep(i) {
			vals[i] = v
		}
	}
	return newConsts(k.Fn, vals)
}

// Deciding reports, for each parameter of fn, whether an if on it (see
// testedByIf) decides whether an instruction for which affects is true
// runs: one lies in a block that one of the if's branches reaches and
// the other does not. A specialisation for a parameter that decides no
// such instruction has the function's general effect on what affects
// tells (the locks held, where affects tells the lock operations).
func Deciding(fn *ssa.Function, affects func(ssa.Instruction) bool) []bool {
	out := make([]bool, len(fn.Params))
	for i, p := range fn.Params {
		if !isBool(p.Type()) {
			continue
		}
		for _, ifi := range ifsOn(p) {
			if decides(ifi.Block(), affects) {
				out[i] = true
				break
			}
		}
	}
	return out
}

// ifsOn returns the ifs whose condition is p, its negation or its
// comparison with a constant.
func ifsOn(p *ssa.Parameter) []*ssa.If {
	var out []*ssa.If
	var visit func(v ssa.Value, depth int)
	visit = func(v ssa.Value, depth int) {
		refs := v.Referrers()
		if refs == nil {
			return
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.If:
				out = append(out, r)
			case *ssa.UnOp:
				if depth == 0 && r.Op == token.NOT {
					visit(r, 1)
				}
			case *ssa.BinOp:
				if depth == 0 && (r.Op == token.EQL || r.Op == token.NEQ) && (isConst(r.X) || isConst(r.Y)) {
					visit(r, 1)
				}
			}
		}
	}
	visit(p, 0)
	return out
}

// decides reports whether a block that only one of the two successors
// of b reaches holds an instruction for which affects is true.
func decides(b *ssa.BasicBlock, affects func(ssa.Instruction) bool) bool {
	if len(b.Succs) != 2 {
		return false
	}
	t, f := reachable(b.Succs[0]), reachable(b.Succs[1])
	for _, side := range [2][2]map[*ssa.BasicBlock]bool{{t, f}, {f, t}} {
		for blk := range side[0] {
			if side[1][blk] {
				continue
			}
			for _, instr := range blk.Instrs {
				if affects(instr) {
					return true
				}
			}
		}
	}
	return false
}

// reachable returns the blocks reachable from b, b included.
func reachable(b *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{b: true}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range x.Succs {
			if !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}
