package lsp

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ast/astutil"
)

// A syntaxIndex finds, in the files of a package, the expression an
// analyzer's position names, for a diagnostic that has no end.
type syntaxIndex struct {
	fset  *token.FileSet
	files map[string]*ast.File // by file name
}

func newSyntaxIndex(fset *token.FileSet, files []*ast.File) *syntaxIndex {
	x := &syntaxIndex{fset: fset, files: map[string]*ast.File{}}
	for _, f := range files {
		if tf := fset.File(f.Pos()); tf != nil {
			x.files[tf.Name()] = f
		}
	}
	return x
}

// span returns the extent of the smallest call, selector or expression
// statement that p names, in one of the files: the node that starts at
// p, or whose position as go/types and SSA report it is p (a call's
// opening parenthesis, a selector's selected name). A method or
// function selected and called is its call: for t.a.Lock() at its "("
// or at "Lock", t.a.Lock(); a chain of selectors at its start is the
// whole chain: t.a.b at t. ok is false when p names none.
func (x *syntaxIndex) span(p token.Position) (start, end token.Position, ok bool) {
	if x == nil {
		return start, end, false
	}
	f := x.files[p.Filename]
	if f == nil {
		return start, end, false
	}
	tf := x.fset.File(f.Pos())
	if p.Line < 1 || p.Line > tf.LineCount() || p.Column < 1 {
		return start, end, false
	}
	off := tf.Offset(tf.LineStart(p.Line)) + p.Column - 1
	if off >= tf.Size() {
		return start, end, false
	}
	pos := tf.Pos(off)
	path, _ := astutil.PathEnclosingInterval(f, pos, pos)
	for i, n := range path {
		if !names(n, pos) {
			continue
		}
		if _, isSel := n.(*ast.SelectorExpr); isSel {
			// At the start of a chain of selectors (t.a.b at t), the
			// whole chain.
			for n.Pos() == pos && i+1 < len(path) {
				outer, isSel := path[i+1].(*ast.SelectorExpr)
				if !isSel || outer.X != n {
					break
				}
				n, i = outer, i+1
			}
			if i+1 < len(path) {
				if call, isCall := path[i+1].(*ast.CallExpr); isCall && call.Fun == n {
					n = call
				}
			}
		}
		return x.fset.Position(n.Pos()), x.fset.Position(n.End()), true
	}
	return start, end, false
}

// names reports whether pos is the position of n: where it starts, or
// where go/types and SSA place it.
func names(n ast.Node, pos token.Pos) bool {
	switch n := n.(type) {
	case *ast.CallExpr:
		return n.Pos() == pos || n.Lparen == pos
	case *ast.SelectorExpr:
		return n.Pos() == pos || n.Sel.Pos() == pos
	case *ast.ExprStmt:
		return n.Pos() == pos
	}
	return false
}
