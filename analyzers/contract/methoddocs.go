package contract

import (
	"go/ast"
	"go/types"
	"strings"
)

// MethodDocs returns the documentation comments of the methods of type
// typ of package pkg (files, its syntax; info, its type information), by
// method name: those declared on it, and those it gets
// from an embedded type of the package (a Reboot declared on an embedded
// poolCommon documents Pool's Reboot).
func MethodDocs(files []*ast.File, pkg *types.Package, info *types.Info, typ string) map[string]string {
	return docsOf(files, pkg, info, NewPackageDocs(files), typ, 3)
}

// docsOf is MethodDocs, following embedded types depth levels deep; idocs
// is the package's documentation, read once.
func docsOf(files []*ast.File, pkg *types.Package, info *types.Info, idocs PackageDocs, typ string, depth int) map[string]string {
	byFunc := map[*types.Func]string{}
	docs := map[string]string{}
	if info == nil || pkg == nil {
		return docs
	}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Doc == nil {
				continue
			}
			fn, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			byFunc[fn] = DocText(fd.Doc)
			if recvName(fn) == typ {
				docs[fd.Name.Name] = DocText(fd.Doc)
			}
		}
	}
	tn, ok := pkg.Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		return docs
	}
	// The methods of the package's interfaces that the type implements
	// document the type's methods that have no comment of their own: an
	// unexported implementation behind an exported interface (pond's
	// pool behind Pool, whose Go "submits a task without waiting for it
	// to complete"), as the plan reads them (PackageDocs).
	ptr := types.NewPointer(tn.Type())
	mset := types.NewMethodSet(ptr)
	for i := range mset.Len() {
		fn, ok := mset.At(i).Obj().(*types.Func)
		if !ok {
			continue
		}
		if _, have := docs[fn.Name()]; have {
			continue
		}
		if doc := idocs.Of(fn.Origin()); doc != "" {
			docs[fn.Name()] = doc
			continue
		}
		if doc, ok := byFunc[fn.Origin()]; ok {
			docs[fn.Name()] = doc
			continue
		}
		// A promoted method without a comment: what documents it on the
		// embedded type it is declared on (an interface it implements).
		if recv := recvName(fn); recv != "" && recv != typ && depth > 0 {
			if doc, ok := docsOf(files, pkg, info, idocs, recv, depth-1)[fn.Name()]; ok {
				docs[fn.Name()] = doc
			}
		}
	}
	return docs
}

// recvName returns the name of the type a method is declared on, or "".
func recvName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj().Name()
	}
	return ""
}

// WrappedDocs returns the documentation comments of the types of pkg
// (files, its syntax) that type typ wraps (holds in a field, by value or pointer, or wrapped
// in turn by those, three levels deep), joined: ErrorPool's Go and Wait,
// which call its Pool's, are bound by what Pool's documentation says of
// them ("once all your tasks have been submitted, you must call Wait").
func WrappedDocs(files []*ast.File, pkg *types.Package, typ string) string {
	var out []string
	seen := map[string]bool{typ: true}
	var walk func(name string, depth int)
	walk = func(name string, depth int) {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || depth == 0 {
			return
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			return
		}
		for i := range st.NumFields() {
			t := st.Field(i).Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			n, ok := types.Unalias(t).(*types.Named)
			if !ok || n.Obj().Pkg() != pkg || seen[n.Obj().Name()] {
				continue
			}
			seen[n.Obj().Name()] = true
			if d := TypeDoc(files, n.Obj().Name()); d != "" {
				out = append(out, d)
			}
			walk(n.Obj().Name(), depth-1)
		}
	}
	walk(typ, 3)
	return strings.Join(out, "\n")
}
