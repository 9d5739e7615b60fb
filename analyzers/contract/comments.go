package contract

import (
	"go/ast"
	"go/token"
	"iter"
	"strings"
)

// TypeDocs returns the doc comments of the named types declared in files
// (see typeSpecs), by the position of the type's name.
func TypeDocs(files []*ast.File) map[token.Pos]string {
	docs := map[token.Pos]string{}
	for ts, doc := range typeSpecs(files) {
		if doc != nil {
			docs[ts.Name.Pos()] = DocText(doc)
		}
	}
	return docs
}

// TypeDoc returns the doc comment of the type name declared in files, as
// depcon reads it (see typeSpecs and DocText: its //depcon:
// directives included), or "".
func TypeDoc(files []*ast.File, name string) string {
	for ts, doc := range typeSpecs(files) {
		if ts.Name.Name == name {
			if doc == nil {
				return ""
			}
			return DocText(doc)
		}
	}
	return ""
}

// typeSpecs yields the type specs declared at the top level of files,
// each with its doc comment (nil when it has none): the comment of the
// type spec, or that of its declaration when the declaration has one
// spec ("// T is …" above "type T struct").
func typeSpecs(files []*ast.File) iter.Seq2[*ast.TypeSpec, *ast.CommentGroup] {
	return func(yield func(*ast.TypeSpec, *ast.CommentGroup) bool) {
		for _, f := range files {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, s := range gd.Specs {
					ts := s.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					if !yield(ts, doc) {
						return
					}
				}
			}
		}
	}
}

// PackageDoc returns the package's doc comment, from the files that have
// one.
func PackageDoc(files []*ast.File) string {
	var docs []string
	for _, f := range files {
		if f.Doc != nil {
			docs = append(docs, f.Doc.Text())
		}
	}
	return strings.Join(docs, "\n")
}

// DocText returns the text of a doc comment, as CommentGroup.Text does,
// followed by its //depcon: directives (which Text leaves out), one per
// line: they write down a contract (see Directives).
func DocText(cg *ast.CommentGroup) string {
	text := cg.Text()
	for _, c := range cg.List {
		if strings.HasPrefix(c.Text, DirectivePrefix) {
			text += c.Text + "\n"
		}
	}
	return text
}

// DirectivePrefix starts the comments that write down a contract in the
// code: //depcon:setup, //depcon:single-goroutine, //depcon:ignore.
const DirectivePrefix = "//depcon:"
