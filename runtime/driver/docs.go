package driver

import (
	"go/ast"

	"golang.org/x/tools/go/packages"
)

// methodDocs returns the documentation comments of the methods declared
// on type typ in pkg, by method name.
func methodDocs(pkg *packages.Package, typ string) map[string]string {
	docs := map[string]string{}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Doc == nil || ReceiverName(fd.Recv.List[0].Type) != typ {
				continue
			}
			docs[fd.Name.Name] = fd.Doc.Text()
		}
	}
	return docs
}

// ReceiverName returns the name of the type of a method's receiver
// expression: T for T, *T, T[K] and *T[K]; "" for anything else.
func ReceiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
