package deps

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/summary"
)

// InterfaceDocs holds the doc comments of the interface methods a
// package declares, by the position of the method's name: an
// undocumented method's contract is written where its package declares
// the interface it fulfils (a constructor that returns a StoppableTimer
// whose Stop "must be called just once"). The zero value knows none.
type InterfaceDocs map[token.Pos]string

// NewInterfaceDocs reads the interface methods' doc comments of files,
// the syntax of one package.
func NewInterfaceDocs(files []*ast.File) InterfaceDocs {
	docs := InterfaceDocs{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			it, ok := n.(*ast.InterfaceType)
			if !ok {
				return true
			}
			for _, field := range it.Methods.List {
				if field.Doc != nil && len(field.Names) == 1 {
					docs[field.Names[0].Pos()] = summary.DocText(field.Doc)
				}
			}
			return true
		})
	}
	return docs
}

// of returns the doc comments of the methods that method fn implements
// (see Of).
func (d InterfaceDocs) of(fn *ssa.Function) string {
	m, ok := fn.Object().(*types.Func)
	if !ok {
		return ""
	}
	return d.Of(m)
}

// Of returns the doc comments of the methods that method m implements,
// of the interfaces m's package declares, "" when there are none.
func (d InterfaceDocs) Of(m *types.Func) string {
	sig, ok := m.Type().(*types.Signature)
	if len(d) == 0 || !ok || sig.Recv() == nil || m.Pkg() == nil {
		return ""
	}
	ptr := sig.Recv().Type()
	if _, ok := ptr.(*types.Pointer); !ok {
		ptr = types.NewPointer(ptr)
	}
	scope := m.Pkg().Scope()
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
			if im := iface.Method(i); im.Name() == m.Name() && d[im.Pos()] != "" {
				docs = append(docs, d[im.Pos()])
			}
		}
	}
	return strings.Join(docs, "\n")
}
