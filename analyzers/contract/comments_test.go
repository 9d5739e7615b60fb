package contract_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/depcon/depcon/analyzers/contract"
)

// TestTypeDoc checks the doc comment TypeDoc gives a type: its spec's,
// or its declaration's when the declaration has one spec, with the
// //depcon: directives that CommentGroup.Text leaves out.
func TestTypeDoc(t *testing.T) {
	const src = `package p

// Cache is a cache.
//
//depcon:single-goroutine
type Cache struct{}

// The two types.
type (
	// A is documented on its spec.
	A int
	B int
)

type Bare int
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"Cache":   "Cache is a cache.\n//depcon:single-goroutine\n",
		"A":       "A is documented on its spec.\n",
		"B":       "", // the declaration's comment is not B's: it has two specs
		"Bare":    "",
		"Missing": "",
	} {
		if got := contract.TypeDoc([]*ast.File{f}, name); got != want {
			t.Errorf("TypeDoc(%s) = %q, want %q", name, got, want)
		}
	}
}
