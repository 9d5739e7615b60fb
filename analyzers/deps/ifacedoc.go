package deps

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/summary"
)

// interfaceDoc returns the doc comments of the methods that method fn
// implements, of the interfaces its package declares, "" when there are
// none: an undocumented method's contract is written where its package
// declares the interface it fulfils (a constructor that returns a
// StoppableTimer whose Stop "must be called just once"). It reads the
// files the interfaces are declared in, once each: whole programs have
// the SSA but not the syntax of their packages.
func interfaceDoc(fn *ssa.Function) string {
	recv := fn.Signature.Recv()
	if recv == nil || fn.Pkg == nil {
		return ""
	}
	t := recv.Type()
	ptr := t
	if _, ok := t.(*types.Pointer); !ok {
		ptr = types.NewPointer(t)
	}
	scope := fn.Pkg.Pkg.Scope()
	var docs []string
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok || iface.NumMethods() == 0 || !types.Implements(ptr, iface) {
			continue
		}
		for i := 0; i < iface.NumMethods(); i++ {
			if m := iface.Method(i); m.Name() == fn.Name() {
				if d := ifaceDocs.doc(fn.Prog.Fset, m.Pos()); d != "" {
					docs = append(docs, d)
				}
			}
		}
	}
	return strings.Join(docs, "\n")
}

// ifaceDocs caches the doc comments of interface methods by file.
var ifaceDocs = &methodDocs{files: map[string]map[int]string{}}

// methodDocs looks up the doc comments of interface methods in their
// source files, each parsed at most once, by offset in the file.
type methodDocs struct {
	mu    sync.Mutex
	files map[string]map[int]string
}

// doc returns the doc comment of the interface method declared at pos.
func (d *methodDocs) doc(fset *token.FileSet, pos token.Pos) string {
	tf := fset.File(pos)
	if tf == nil {
		return ""
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	docs, ok := d.files[tf.Name()]
	if !ok {
		docs = map[int]string{}
		pf := token.NewFileSet()
		if f, err := parser.ParseFile(pf, tf.Name(), nil, parser.ParseComments|parser.SkipObjectResolution); err == nil {
			ast.Inspect(f, func(n ast.Node) bool {
				it, ok := n.(*ast.InterfaceType)
				if !ok {
					return true
				}
				for _, field := range it.Methods.List {
					if field.Doc != nil && len(field.Names) == 1 {
						docs[pf.Position(field.Names[0].Pos()).Offset] = summary.DocText(field.Doc)
					}
				}
				return true
			})
		}
		d.files[tf.Name()] = docs
	}
	return docs[tf.Offset(pos)]
}
