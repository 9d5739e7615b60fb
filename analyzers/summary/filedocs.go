package summary

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"github.com/depcon/depcon/analyzers/contract"
)

// fileDocs looks the doc comments of types up in their source files,
// parsing each file at most once: the whole-program mode has the SSA but
// not the syntax of the packages.
type fileDocs struct {
	fset  *token.FileSet
	files map[string]map[token.Pos]string
}

func (d *fileDocs) doc(tn *types.TypeName) string {
	tf := d.fset.File(tn.Pos())
	if tf == nil {
		return ""
	}
	docs, ok := d.files[tf.Name()]
	if !ok {
		// Parse into a file set of its own, then map the positions
		// by offset onto the program's file.
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tf.Name(), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err == nil {
			docs = map[token.Pos]string{}
			for pos, text := range contract.TypeDocs([]*ast.File{f}) {
				off := fset.Position(pos).Offset
				if off <= tf.Size() {
					docs[tf.Pos(off)] = text
				}
			}
		}
		d.files[tf.Name()] = docs
	}
	return docs[tn.Pos()]
}
