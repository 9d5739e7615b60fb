package repro

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/depcon/depcon/runtime/harness"
)

// showSource is the reproducer's rendering of values: the harness's show
// (runtime/harness/lin.go), taken from the harness source embedded in the
// binary, so that a reproducer renders an outcome as depcon did. It
// declares show as a closure, so that two reproducers in one package do
// not clash, after the package-level variables of the harness that show
// reads, and then showAll, which renders each of its arguments (a call's
// results). showImports are the import paths the declarations use.
var showSource, showImports = mustShow(harness.Files)

// mustShow returns showFrom(files), and panics if the harness's show
// cannot be carried into a reproducer: a change to the harness that its
// tests report.
func mustShow(files fs.FS) (string, []string) {
	src, imports, err := showFrom(files)
	if err != nil {
		panic("repro: the harness's show: " + err.Error())
	}
	return src, imports
}

// renamed maps a standard library name that show may use, by its
// selector, to an older name of the same thing, which the reproducer
// uses so that it also builds with a toolchain older than the name
// (reflect.Pointer is Go 1.18's).
var renamed = map[string]string{"reflect.Pointer": "Ptr"}

// showFrom returns the reproducer's declarations of show and showAll,
// made from the source of the harness package in files, and the import
// paths they use. show may read package-level variables and constants
// of the harness declared alone in their spec, which precede it; any
// other package-level name of the harness (a function, a type) is an
// error.
func showFrom(files fs.FS) (string, []string, error) {
	fset := token.NewFileSet()
	type decl struct {
		d       *ast.GenDecl
		imports map[string]string // the imports of its file: name → path
	}
	decls := map[string]decl{}  // package-level variable or constant → its declaration
	others := map[string]bool{} // other package-level names
	var show *ast.FuncDecl
	var showImports map[string]string
	names, err := fs.Glob(files, "*.go")
	if err != nil {
		return "", nil, err
	}
	for _, name := range names {
		data, err := fs.ReadFile(files, name)
		if err != nil {
			return "", nil, err
		}
		f, err := parser.ParseFile(fset, name, data, parser.SkipObjectResolution)
		if err != nil {
			return "", nil, err
		}
		imports := map[string]string{}
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			if spec.Name != nil {
				imports[spec.Name.Name] = "" // not carried
			} else {
				imports[path.Base(p)] = p
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil {
					continue
				}
				others[d.Name.Name] = true
				if d.Name.Name == "show" {
					show, showImports = d, imports
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.ValueSpec:
						for _, id := range spec.Names {
							if len(d.Specs) == 1 && len(spec.Names) == 1 {
								decls[id.Name] = decl{d, imports}
							} else {
								others[id.Name] = true
							}
						}
					case *ast.TypeSpec:
						others[spec.Name.Name] = true
					}
				}
			}
		}
	}
	if show == nil {
		return "", nil, fmt.Errorf("no function show in %s", strings.Join(names, " "))
	}
	var b strings.Builder
	used := map[string]bool{} // import paths
	done := map[string]bool{} // package-level variables declared
	// declare writes the declarations of the package-level names that n
	// uses, in an order that declares each before its uses, with
	// locals, the names n declares itself, left out; imports are those
	// of n's file.
	var declare func(n ast.Node, locals map[string]bool, imports map[string]string) error
	declare = func(n ast.Node, locals map[string]bool, imports map[string]string) error {
		var err error
		ast.Inspect(n, func(n ast.Node) bool {
			if err != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && !locals[x.Name] && decls[x.Name].d == nil && !others[x.Name] {
					if p, ok := imports[x.Name]; ok {
						if p == "" {
							err = fmt.Errorf("show uses %s, a renamed import", x.Name)
							return false
						}
						used[p] = true
						if old, ok := renamed[x.Name+"."+n.Sel.Name]; ok {
							n.Sel.Name = old
						}
						return false
					}
				}
				err = declare(n.X, locals, imports) // n.Sel is a field or method, no name of the package
				return false
			case *ast.Ident:
				switch {
				case locals[n.Name] || done[n.Name]:
				case decls[n.Name].d != nil:
					done[n.Name] = true
					d := decls[n.Name]
					if err = declare(d.d, nil, d.imports); err != nil {
						return false
					}
					var buf bytes.Buffer
					if err = printer.Fprint(&buf, fset, d.d); err != nil {
						return false
					}
					b.Write(buf.Bytes())
					b.WriteString("\n")
				case others[n.Name]:
					err = fmt.Errorf("show uses %s, a package-level name of the harness other than a variable or constant declared alone", n.Name)
				}
			}
			return true
		})
		return err
	}
	locals := declared(show)
	if err := declare(show.Type, locals, showImports); err != nil {
		return "", nil, err
	}
	if err := declare(show.Body, locals, showImports); err != nil {
		return "", nil, err
	}
	lit := &ast.FuncLit{Type: show.Type, Body: show.Body}
	var sig, fn bytes.Buffer
	if err := printer.Fprint(&sig, fset, show.Type); err != nil {
		return "", nil, err
	}
	if err := printer.Fprint(&fn, fset, lit); err != nil {
		return "", nil, err
	}
	fmt.Fprintf(&b, "var show %s\nshow = %s\n", sig.String(), fn.String())
	b.WriteString("showAll := func(vs ...interface{}) []string {\n" +
		"\tout := make([]string, len(vs))\n" +
		"\tfor i, x := range vs {\n" +
		"\t\tout[i] = show(reflect.ValueOf(x))\n" +
		"\t}\n" +
		"\treturn out\n" +
		"}\n")
	used["reflect"] = true
	return b.String(), slices.Sorted(maps.Keys(used)), nil
}

// declared returns the names fn declares: itself, its parameters and
// results, and its local variables, of whatever scope.
func declared(fn *ast.FuncDecl) map[string]bool {
	names := map[string]bool{fn.Name.Name: true}
	add := func(exprs ...ast.Expr) {
		for _, e := range exprs {
			if id, ok := e.(*ast.Ident); ok {
				names[id.Name] = true
			}
		}
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				add(id)
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				add(id)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				add(n.Lhs...)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				add(n.Key, n.Value)
			}
		}
		return true
	})
	return names
}
