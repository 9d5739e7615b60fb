package testgen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand/v2"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
)

// TestPickExtremesRare checks that extreme numeric arguments are drawn, but
// rarely: a MaxInt size makes many constructors run for ever.
func TestPickExtremesRare(t *testing.T) {
	v := &valuer{rng: rand.New(rand.NewPCG(1, 2))}
	const n = 16000
	extremes := 0
	for range n {
		switch v.pick(signedLits) {
		case "max", "min":
			extremes++
		}
	}
	// Expected: n/extremeOdds of the draws pick among all 8 literals, 2
	// of which are extremes: n/64 = 250.
	if extremes < 150 || extremes > 350 {
		t.Errorf("%d extremes in %d draws, want about %d", extremes, n, n/64)
	}
	if got := v.pick(stringLits); got == "max" {
		t.Errorf("string literal %q", got)
	}
}

// TestLockOffOptionField checks that an option field the plan says turns
// the locking off (deps.TypePlan.LockOffFields) is never set, while
// another bool of the same options is drawn both ways.
func TestLockOffOptionField(t *testing.T) {
	const src = `package p

type Options struct {
	NoLocks bool
	Verbose bool
	Degree  int
}

type Tree struct{ n int }

func NewTree(o Options) *Tree { return &Tree{} }

func (t *Tree) Len() int { return t.n }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	plan := &deps.TypePlan{Name: "Tree", Concurrent: true, Methods: []deps.Method{{Name: "Len"}},
		LockOffFields: map[string]string{"Options.NoLocks": "disable locking"}}
	s, err := NewSubject(pkg, plan)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	v := &valuer{s: s, rng: rand.New(rand.NewPCG(1, 2)), configs: &n}
	verbose := map[string]bool{}
	for range 20 {
		cfg := v.config(pkg.Scope().Lookup("Options").Type())
		if cfg == nil {
			t.Fatal("no configuration for Options")
		}
		for _, e := range cfg.Elems {
			switch e.Field {
			case "NoLocks":
				if e.Lit != "false" {
					t.Fatalf("NoLocks = %s, want it never set", e.Lit)
				}
			case "Verbose":
				verbose[e.Lit] = true
			}
		}
	}
	if !verbose["true"] || !verbose["false"] {
		t.Errorf("Verbose took %v, want both values", verbose)
	}
}
