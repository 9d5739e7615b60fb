package contract

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// PackageDocs holds what a package's documentation says of contracts
// outside its types' methods:
//   - the doc comments of the interface methods it declares, by the
//     position of the method's name: an undocumented method's contract
//     is written where its package declares the interface it fulfils (a
//     constructor that returns a StoppableTimer whose Stop "must be
//     called just once");
//   - its option fields that turn locking off: a bool field of a struct
//     type whose documentation says it disables the locking
//     (Options.NoLocks, "NoLocks will disable locking"), which a caller
//     sets only for an object it does not share.
//
// The zero value knows none.
type PackageDocs struct {
	ifaces  map[token.Pos]string
	names   map[string]bool   // the names of the methods of ifaces
	lockOff map[string]string // "Options.NoLocks" → the phrase of its doc
}

// NewPackageDocs reads the documentation of files, the syntax of one
// package.
func NewPackageDocs(files []*ast.File) PackageDocs {
	docs := PackageDocs{ifaces: map[token.Pos]string{}, names: map[string]bool{}, lockOff: map[string]string{}}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.InterfaceType:
				for _, field := range n.Methods.List {
					if field.Doc != nil && len(field.Names) == 1 {
						docs.ifaces[field.Names[0].Pos()] = DocText(field.Doc)
						docs.names[field.Names[0].Name] = true
					}
				}
			case *ast.TypeSpec:
				if st, ok := n.Type.(*ast.StructType); ok {
					docs.lockOffFields(n.Name.Name, st)
				}
			}
			return true
		})
	}
	return docs
}

// lockOffFields records the bool fields of struct type name, st, whose
// documentation says they turn the locking off.
func (d PackageDocs) lockOffFields(name string, st *ast.StructType) {
	for _, field := range st.Fields.List {
		if id, ok := field.Type.(*ast.Ident); !ok || id.Name != "bool" {
			continue
		}
		var text string
		for _, cg := range []*ast.CommentGroup{field.Doc, field.Comment} {
			if cg != nil {
				text += DocText(cg) + " "
			}
		}
		phrase := lockOffRE.FindString(strings.Join(strings.Fields(text), " "))
		if phrase == "" {
			continue
		}
		for _, n := range field.Names {
			d.lockOff[name+"."+n.Name] = strings.ToLower(phrase)
		}
	}
}

// LockOffFields returns the option fields of the package that turn
// locking off ("Options.NoLocks"), each with the phrase of its
// documentation that says so.
func (d PackageDocs) LockOffFields() map[string]string { return d.lockOff }

// Of returns the doc comments of the methods that method m implements,
// of the interfaces m's package declares, "" when there are none.
func (d PackageDocs) Of(m *types.Func) string {
	sig, ok := m.Type().(*types.Signature)
	if !d.names[m.Name()] || !ok || sig.Recv() == nil || m.Pkg() == nil {
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
			if im := iface.Method(i); im.Name() == m.Name() && d.ifaces[im.Pos()] != "" {
				docs = append(docs, d.ifaces[im.Pos()])
			}
		}
	}
	return strings.Join(docs, "\n")
}
