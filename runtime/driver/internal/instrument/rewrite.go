package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
)

// A rewriter collects the edits of one file.
type rewriter struct {
	fset   *token.FileSet
	info   *types.Info
	hooks  Hooks
	want   Want
	wantAt map[string][]string
	res    *Result
	tf     *token.File
	text   []byte
	edits  []edit
	fn     string // the enclosing declared function
	// fields holds, for each statement that gets a point, the wanted
	// fields and package-level variables it accesses.
	fields map[ast.Stmt][]string
}

// file rewrites f: it finds the statements that get a point (the
// innermost statement of a statement list containing a wanted field
// access or position), then visits the statement lists in source order.
func (rw *rewriter) file(f *ast.File) {
	var lists []ast.Stmt // every statement of every statement list
	ast.Inspect(f, func(n ast.Node) bool {
		for _, s := range stmtList(n) {
			if _, empty := s.(*ast.EmptyStmt); !empty {
				lists = append(lists, s)
			}
		}
		return true
	})
	innermost := func(pos token.Pos) ast.Stmt {
		var best ast.Stmt
		for _, s := range lists {
			if s.Pos() <= pos && pos < s.End() && (best == nil || s.End()-s.Pos() < best.End()-best.Pos()) {
				best = s
			}
		}
		return best
	}
	marked := map[ast.Stmt][]string{} // statement → the wanted positions it holds
	mark := func(pos token.Pos, field string) {
		s := innermost(pos)
		if s == nil {
			return
		}
		if _, ok := marked[s]; !ok {
			marked[s] = nil
		}
		if field != "" && !slices.Contains(rw.fields[s], field) {
			rw.fields[s] = append(rw.fields[s], field)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if rw.wantedField(n) {
				mark(n.Sel.Pos(), n.Sel.Name)
			}
		case *ast.Ident:
			if rw.wantedGlobal(n) {
				mark(n.Pos(), n.Name)
			}
		case *ast.SendStmt, *ast.SelectStmt:
			mark(n.Pos(), "")
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				mark(n.Pos(), "")
			}
		case *ast.RangeStmt:
			if _, ok := rw.under(n.X).(*types.Chan); ok {
				mark(n.Pos(), "")
			}
		case *ast.CallExpr:
			if rw.syncOp(n) {
				mark(n.Pos(), "")
			}
		}
		return true
	})
	base := filepath.Base(rw.tf.Name())
	for k, given := range rw.wantAt {
		file, lc, _ := cutLineCol(k)
		if file != base {
			continue
		}
		var line, col int
		if _, err := fmt.Sscanf(lc, "%d:%d", &line, &col); err != nil || line < 1 || line > rw.tf.LineCount() {
			continue
		}
		pos := rw.tf.LineStart(line) + token.Pos(col-1)
		if s := innermost(pos); s != nil {
			marked[s] = append(marked[s], given...)
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		rw.fn = funcName(fd)
		rw.calls(fd)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			for _, s := range stmtList(n) {
				rw.stmt(s, marked)
			}
			return true
		})
	}
}

// stmtList returns the statements of n when n holds a statement list.
// The clauses of a switch or select body are not statements of a list:
// nothing can be placed before a case.
func stmtList(n ast.Node) []ast.Stmt {
	var list []ast.Stmt
	switch n := n.(type) {
	case *ast.BlockStmt:
		list = n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	if len(list) > 0 {
		switch list[0].(type) {
		case *ast.CaseClause, *ast.CommClause:
			return nil
		}
	}
	return list
}

// stmt places the hooks of one statement of a list.
func (rw *rewriter) stmt(s ast.Stmt, marked map[ast.Stmt][]string) {
	if e, ok := s.(*ast.ExprStmt); ok {
		if op, recv := rw.lockCall(e.X); op != "" {
			if before := rw.lock(s, op, recv); before != 0 {
				for _, p := range marked[s] {
					rw.res.At[p] = before
				}
				return
			}
		}
	}
	if d, ok := s.(*ast.DeferStmt); ok {
		if op, recv := rw.lockCall(d.Call); (op == "Unlock" || op == "RUnlock") && rw.line(d.Pos()) == rw.line(d.End()) {
			// defer E.Unlock() → defer U(E.Unlock, id): E is evaluated
			// at the defer statement, as before.
			id := rw.site(KindUnlocked, s, op)
			rw.replace(d.Call, fmt.Sprintf("%s(%s.%s, %d)", rw.hooks.Unlock, rw.src(recv), op, id))
		}
	}
	if given, ok := marked[s]; ok {
		id := rw.site(KindPoint, s, "")
		site := &rw.res.Sites[id-1]
		site.Fields = rw.fields[s]
		site.Calls = rw.callees(s)
		rw.insert(s.Pos(), fmt.Sprintf("%s(%d); ", rw.hooks.Point, id))
		for _, p := range given {
			rw.res.At[p] = id
		}
	}
}

// lock rewrites the lock operation statement s. For an acquisition it
// returns the point placed before it, 0 when it left it alone.
func (rw *rewriter) lock(s ast.Stmt, op string, recv ast.Expr) int {
	switch op {
	case "Unlock", "RUnlock":
		id := rw.site(KindUnlocked, s, op)
		rw.insert(s.End(), fmt.Sprintf("; %s(%d)", rw.hooks.Unlocked, id))
		return 0 // a wanted statement may still get a point before
	}
	if !pure(recv) || !rw.hasTry(recv, "Try"+op) || rw.line(s.Pos()) != rw.line(s.End()) {
		return 0
	}
	before := rw.site(KindLock, s, op)
	wait := rw.site(KindWait, s, op)
	after := rw.site(KindLocked, s, op)
	r := rw.src(recv)
	rw.replace(s, fmt.Sprintf("%s(%d); if !%s.Try%s() { %s(%d, %s.%s) }; %s(%d)",
		rw.hooks.Point, before, r, op, rw.hooks.Wait, wait, r, op, rw.hooks.Locked, after))
	return before
}

func (rw *rewriter) line(p token.Pos) int { return rw.tf.Line(p) }

// lockCall returns the operation and receiver of a call of a method of
// sync.Mutex or sync.RWMutex (promoted ones included), or "".
func (rw *rewriter) lockCall(x ast.Expr) (string, ast.Expr) {
	call, ok := x.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return "", nil
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", nil
	}
	fn, ok := rw.info.Uses[sel.Sel].(*types.Func)
	if !ok || !syncMutexMethod(fn) {
		return "", nil
	}
	switch fn.Name() {
	case "Lock", "RLock", "Unlock", "RUnlock":
		return fn.Name(), sel.X
	}
	return "", nil
}

// syncMutexMethod reports whether fn is a method of sync.Mutex or
// sync.RWMutex.
func syncMutexMethod(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && (n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex")
}

// hasTry reports whether recv's method name (TryLock or TryRLock) is the
// one of package sync, not shadowed by a method of the package.
func (rw *rewriter) hasTry(recv ast.Expr, name string) bool {
	t := rw.info.TypeOf(recv)
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, ok := obj.(*types.Func)
	return ok && syncMutexMethod(fn)
}

// pure reports whether x can be evaluated twice with the same result and
// no effect: names, field selections, dereferences and indexes of those.
func pure(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return pure(x.X)
	case *ast.StarExpr:
		return pure(x.X)
	case *ast.ParenExpr:
		return pure(x.X)
	case *ast.IndexExpr:
		return pure(x.X) && pure(x.Index)
	case *ast.BasicLit:
		return true
	}
	return false
}

// wantedField reports whether sel selects a wanted field of a struct
// declared in a package.
func (rw *rewriter) wantedField(sel *ast.SelectorExpr) bool {
	if !rw.want.Fields[sel.Sel.Name] {
		return false
	}
	s, ok := rw.info.Selections[sel]
	return ok && s.Kind() == types.FieldVal
}

// site records a new site of statement s and returns its ID.
func (rw *rewriter) site(kind string, s ast.Stmt, op string) int {
	p := rw.fset.Position(s.Pos())
	id := len(rw.res.Sites) + 1
	rw.res.Sites = append(rw.res.Sites, Site{ID: id, Kind: kind, Func: rw.fn, Op: op,
		Pos: fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)})
	return id
}

func (rw *rewriter) insert(at token.Pos, text string) {
	off := rw.tf.Offset(at)
	rw.edits = append(rw.edits, edit{Off: off, End: off, Text: text})
}

func (rw *rewriter) replace(n ast.Node, text string) {
	rw.edits = append(rw.edits, edit{Off: rw.tf.Offset(n.Pos()), End: rw.tf.Offset(n.End()), Text: text})
}

// src returns the source text of n, on one line.
func (rw *rewriter) src(n ast.Node) string {
	s := string(rw.text[rw.tf.Offset(n.Pos()):rw.tf.Offset(n.End())])
	return strings.Join(strings.Fields(s), " ")
}

// funcName returns "(*T).M", "(T).M" or "f".
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return "(" + star + id.Name + ")." + fd.Name.Name
	}
	return fd.Name.Name
}

// wantedGlobal reports whether id uses a package-level variable of the
// package whose name is wanted (a location "pkg.table" names the
// variable table).
func (rw *rewriter) wantedGlobal(id *ast.Ident) bool {
	if !rw.want.Fields[id.Name] {
		return false
	}
	v, ok := rw.info.Uses[id].(*types.Var)
	return ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// under returns the underlying type of x, or nil.
func (rw *rewriter) under(x ast.Expr) types.Type {
	t := rw.info.TypeOf(x)
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// syncOp reports whether call is a synchronising operation that is not a
// lock operation: a function or method of sync/atomic, or close.
func (rw *rewriter) syncOp(call *ast.CallExpr) bool {
	switch obj := rw.callee(call).(type) {
	case *types.Func:
		return obj.Pkg() != nil && obj.Pkg().Path() == "sync/atomic"
	case *types.Builtin:
		return obj.Name() == "close"
	}
	return false
}

// callee returns the object a call statically calls (a function, a
// method, a builtin), or nil.
func (rw *rewriter) callee(call *ast.CallExpr) types.Object {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return rw.info.Uses[fun]
	case *ast.SelectorExpr:
		return rw.info.Uses[fun.Sel]
	case *ast.IndexExpr: // an instantiated generic function
		return rw.callee(&ast.CallExpr{Fun: fun.X})
	case *ast.IndexListExpr:
		return rw.callee(&ast.CallExpr{Fun: fun.X})
	}
	return nil
}

// callees returns the functions and methods declared in the package that
// n calls, as "(*T).M" or "f", in source order, each once.
func (rw *rewriter) callees(n ast.Node) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, ok := rw.callee(call).(*types.Func)
		if !ok || fn.Pkg() == nil || rw.res.pkg == nil || fn.Pkg() != rw.res.pkg {
			return true
		}
		if name := funcKey(fn); !slices.Contains(out, name) {
			out = append(out, name)
		}
		return true
	})
	return out
}

// calls records the package's functions that fd calls.
func (rw *rewriter) calls(fd *ast.FuncDecl) {
	if c := rw.callees(fd.Body); len(c) > 0 {
		rw.res.Calls[rw.fn] = append(rw.res.Calls[rw.fn], c...)
	}
}

// funcKey returns the name funcName gives the declaration of fn.
func funcKey(fn *types.Func) string {
	fn = fn.Origin()
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return fn.Name()
	}
	t, star := sig.Recv().Type(), ""
	if p, ok := t.(*types.Pointer); ok {
		t, star = p.Elem(), "*"
	}
	if n, ok := t.(*types.Named); ok {
		return "(" + star + n.Obj().Name() + ")." + fn.Name()
	}
	return fn.Name()
}
