package lockleak

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// SSA jumps carry no position, so the statement a jump comes from (a
// continue, a break, the end of a loop body) is found in the syntax: the
// first such statement after the last instruction of the jumping block,
// in a statement list that encloses that instruction. Where this is not
// clear, nothing is reported.

// syntax holds the loops and branch statements of one function body.
type syntax struct {
	body  *ast.BlockStmt
	loops []*loopSyntax
	ifs   []*ast.IfStmt
	cases []*ast.CaseClause // of expression switches
}

type loopSyntax struct {
	stmt  ast.Stmt // *ast.ForStmt or *ast.RangeStmt
	body  *ast.BlockStmt
	label *ast.Ident
	// cands are the statements that leave an iteration: continue and
	// break statements targeting the loop, and the end of the body.
	cands []cand
}

type cand struct {
	pos        token.Pos
	brk        bool // a break; otherwise a continue or the end of the body
	outer      bool // a labeled continue of an enclosing loop, which leaves this one as a break does
	end        bool // the end of the body
	scopeStart token.Pos
	scopeEnd   token.Pos
}

func newSyntax(fn *ssa.Function) *syntax {
	var body *ast.BlockStmt
	switch n := fn.Syntax().(type) {
	case *ast.FuncDecl:
		body = n.Body
	case *ast.FuncLit:
		body = n.Body
	}
	if body == nil {
		return nil
	}
	sx := &syntax{body: body}
	sx.walk(body, nil, nil, nil)
	return sx
}

// frame is the stack of enclosing breakable statements.
type frame struct {
	outer *frame
	loop  *loopSyntax // nil for a switch or select
	label *ast.Ident
}

func (sx *syntax) walk(n ast.Node, fr *frame, scope ast.Node, label *ast.Ident) {
	if n == nil {
		return
	}
	switch n := n.(type) {
	case *ast.FuncLit:
		return
	case *ast.LabeledStmt:
		sx.walk(n.Stmt, fr, scope, n.Label)
		return
	case *ast.ForStmt, *ast.RangeStmt:
		var body *ast.BlockStmt
		if f, ok := n.(*ast.ForStmt); ok {
			body = f.Body
			sx.walk(f.Init, fr, scope, nil)
			sx.walk(f.Cond, fr, scope, nil)
			sx.walk(f.Post, fr, scope, nil)
		} else {
			r := n.(*ast.RangeStmt)
			body = r.Body
			sx.walk(r.X, fr, scope, nil)
		}
		l := &loopSyntax{stmt: n.(ast.Stmt), body: body, label: label}
		l.cands = append(l.cands, cand{pos: body.Rbrace, end: true, scopeStart: body.Lbrace, scopeEnd: body.Rbrace})
		sx.loops = append(sx.loops, l)
		sx.walk(body, &frame{outer: fr, loop: l, label: label}, body, nil)
		return
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		inner := &frame{outer: fr, label: label}
		ast.Inspect(n, func(m ast.Node) bool {
			if m == n {
				return true
			}
			switch m := m.(type) {
			case *ast.CaseClause:
				if _, ok := n.(*ast.SwitchStmt); ok {
					sx.cases = append(sx.cases, m)
				}
				for _, s := range m.Body {
					sx.walk(s, inner, m, nil)
				}
				return false
			case *ast.CommClause:
				for _, s := range m.Body {
					sx.walk(s, inner, m, nil)
				}
				return false
			case *ast.FuncLit:
				return false
			}
			return true
		})
		return
	case *ast.BlockStmt:
		for _, s := range n.List {
			sx.walk(s, fr, n, nil)
		}
		return
	case *ast.IfStmt:
		sx.ifs = append(sx.ifs, n)
		sx.walk(n.Init, fr, scope, nil)
		sx.walk(n.Cond, fr, scope, nil)
		sx.walk(n.Body, fr, scope, nil)
		sx.walk(n.Else, fr, scope, nil)
		return
	case *ast.BranchStmt:
		if n.Tok != token.BREAK && n.Tok != token.CONTINUE {
			return
		}
		var left []*loopSyntax // the loops it leaves on the way to its own
		for f := fr; f != nil; f = f.outer {
			if n.Label != nil {
				if f.label == nil || f.label.Name != n.Label.Name {
					if f.loop != nil {
						left = append(left, f.loop)
					}
					continue
				}
			} else if n.Tok == token.CONTINUE && f.loop == nil {
				continue
			}
			if f.loop != nil && scope != nil {
				f.loop.cands = append(f.loop.cands, cand{pos: n.Pos(), brk: n.Tok == token.BREAK, scopeStart: scope.Pos(), scopeEnd: scope.End()})
				for _, l := range left {
					l.cands = append(l.cands, cand{pos: n.Pos(), brk: true, outer: n.Tok == token.CONTINUE,
						scopeStart: scope.Pos(), scopeEnd: scope.End()})
				}
			}
			break
		}
		return
	}
	ast.Inspect(n, func(m ast.Node) bool {
		if m == n {
			return true
		}
		switch m.(type) {
		case *ast.FuncLit:
			return false
		case ast.Stmt:
			sx.walk(m, fr, scope, nil)
			return false
		}
		return true
	})
}

// loopOf returns the innermost loop containing all positions.
func (sx *syntax) loopOf(pos []token.Pos) *loopSyntax {
	var best *loopSyntax
	for _, l := range sx.loops {
		ok := true
		for _, p := range pos {
			if p < l.stmt.Pos() || p >= l.stmt.End() {
				ok = false
				break
			}
		}
		if ok && (best == nil || l.stmt.Pos() > best.stmt.Pos()) {
			best = l
		}
	}
	return best
}

// next returns the first candidate of l after p, in a statement list
// that encloses p.
func (l *loopSyntax) next(p token.Pos) (cand, bool) {
	var best cand
	found := false
	for _, c := range l.cands {
		if c.pos <= p || p < c.scopeStart || p >= c.scopeEnd {
			continue
		}
		if !found || c.pos < best.pos {
			best, found = c, true
		}
	}
	return best, found
}

// maxPos returns the largest position of an instruction of b.
func maxPos(b *ssa.BasicBlock) token.Pos {
	var p token.Pos
	for _, instr := range b.Instrs {
		if _, ok := instr.(*ssa.Phi); ok {
			continue
		}
		if q := instr.Pos(); q.IsValid() && q > p {
			p = q
		}
	}
	return p
}

func minPos(b *ssa.BasicBlock) token.Pos {
	var p token.Pos
	for _, instr := range b.Instrs {
		if _, ok := instr.(*ssa.Phi); ok {
			continue
		}
		if q := instr.Pos(); q.IsValid() && (!p.IsValid() || q < p) {
			p = q
		}
	}
	return p
}

func within(p token.Pos, n ast.Node) bool {
	return n != nil && p >= n.Pos() && p < n.End()
}

// edgeStmt returns the statement of loop l that the edge from b (its
// i'th successor) stands for.
func (sx *syntax) edgeStmt(l *loopSyntax, b *ssa.BasicBlock, i int) (cand, bool) {
	for !maxPos(b).IsValid() && len(b.Preds) == 1 {
		pred := b.Preds[0]
		i = -1
		for j, s := range pred.Succs {
			if s == b {
				i = j
			}
		}
		if i < 0 || len(pred.Succs) > 2 {
			return cand{}, false
		}
		b = pred
	}
	if len(b.Instrs) == 0 {
		return cand{}, false
	}
	switch last := b.Instrs[len(b.Instrs)-1].(type) {
	case *ssa.Jump:
		p := maxPos(b)
		if !p.IsValid() {
			return cand{}, false
		}
		return l.next(p)
	case *ssa.If:
		p, exact := maxPos(b), false
		if c, ok := last.Cond.(ssa.Instruction); ok && c.Pos().IsValid() {
			p, exact = c.Pos(), true
		}
		if !p.IsValid() || len(b.Succs) != 2 {
			return cand{}, false
		}
		var ifs *ast.IfStmt
		for _, s := range sx.ifs {
			if within(p, s.Cond) && (ifs == nil || s.Pos() > ifs.Pos()) {
				ifs = s
			}
		}
		if ifs == nil && !exact {
			// A condition with no position of its own (a bool variable,
			// ok of a comma-ok, !ok): the block ends with the first if
			// statement after its last instruction that has one.
			for _, s := range sx.ifs {
				if s.Pos() > p && (ifs == nil || s.Pos() < ifs.Pos()) {
					ifs = s
				}
			}
		}
		if ifs == nil {
			// The test of a switch case: its true branch enters the
			// case's body.
			if cc := sx.caseOf(p); cc != nil && i == 0 {
				return l.next(cc.Colon)
			}
			return cand{}, false
		}
		o := minPos(b.Succs[1-i])
		if !o.IsValid() {
			return cand{}, false
		}
		then := false
		switch {
		case within(o, ifs.Body):
			then = false
		case ifs.Else != nil && within(o, ifs.Else), o >= ifs.End():
			then = true
		case within(o, ifs.Cond):
			bin := condOp(ifs.Cond, p, o)
			switch bin {
			case token.LOR:
				then = true
			case token.LAND:
				then = false
			default:
				return cand{}, false
			}
		default:
			return cand{}, false
		}
		if then {
			return l.next(ifs.Body.Lbrace)
		}
		switch e := ifs.Else.(type) {
		case nil:
			return l.next(ifs.End() - 1)
		case *ast.BlockStmt:
			return l.next(e.Lbrace)
		}
	}
	return cand{}, false
}

// caseOf returns the case clause of an expression switch whose list of
// expressions holds p.
func (sx *syntax) caseOf(p token.Pos) *ast.CaseClause {
	for _, cc := range sx.cases {
		for _, e := range cc.List {
			if within(p, e) {
				return cc
			}
		}
	}
	return nil
}

// condOp returns the operator of the innermost && or || of cond whose
// left operand holds p and right operand holds o, or ILLEGAL (also when
// a negation is in the way).
func condOp(cond ast.Expr, p, o token.Pos) token.Token {
	op := token.ILLEGAL
	var visit func(e ast.Expr, negated bool)
	visit = func(e ast.Expr, negated bool) {
		switch e := e.(type) {
		case *ast.ParenExpr:
			visit(e.X, negated)
		case *ast.UnaryExpr:
			if e.Op == token.NOT {
				visit(e.X, true)
			}
		case *ast.BinaryExpr:
			if e.Op != token.LAND && e.Op != token.LOR {
				return
			}
			if within(p, e.X) && within(o, e.Y) {
				if negated {
					op = token.ILLEGAL
				} else {
					op = e.Op
				}
			}
			visit(e.X, negated)
			visit(e.Y, negated)
		}
	}
	visit(cond, false)
	return op
}
