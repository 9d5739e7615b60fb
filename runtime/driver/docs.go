package driver

import (
	"go/ast"

	"go/token"
	"golang.org/x/tools/go/packages"
	"strconv"
	"strings"
	"unicode"
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

// maxLiterals bounds the string constants taken from a package.
const maxLiterals = 64

// stringLiterals returns the string constants of pkg's non-test files that
// could be arguments: the names and keys the package compares with, up to
// 32 bytes, printable, without newlines, in the order of the source,
// without repeats; at most maxLiterals.
func stringLiterals(pkg *packages.Package) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.CallExpr:
				// A message (errors.New, fmt.Errorf, panic) is no key.
				if fn := calleeName(n.Fun); fn == "New" || fn == "Errorf" || fn == "panic" || strings.HasSuffix(fn, "f") {
					return false
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING || len(out) >= maxLiterals {
					return true
				}
				v, err := strconv.Unquote(n.Value)
				if err != nil || v == "" || len(v) > 32 || seen[v] || strings.ContainsAny(v, "\n\r\t%") || !printable(v) {
					return true
				}
				seen[v] = true
				out = append(out, v)
			}
			return true
		})
	}
	return out
}

func calleeName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

func printable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
