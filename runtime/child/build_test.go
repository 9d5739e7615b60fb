package child

import (
	"go/scanner"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/testgen"
)

// TestLanguageVersions builds the children of modules at go 1.12 (the
// oldest the harness supports), at go 1.18 and without a go line, and of a
// package that declares the names of builtins and of standard packages,
// and has each answer a request. The go 1.12 package fails vet and its
// own tests do not compile.
func TestLanguageVersions(t *testing.T) {
	for _, dir := range []string{"go112", "go118", "nogo", "shadow"} {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			b := buildChild(t, "testdata/"+dir, ".", "Counter", "Get", "Inc")
			rep := serve(t, b, counterRequest())
			if rep.Result == nil || rep.Result.Status != harness.StatusOK {
				t.Errorf("reply %+v, want status %s", rep, harness.StatusOK)
				if rep.Death != nil {
					t.Log(rep.Death.Report)
				}
			}
		})
	}
}

// TestRegistrationNames checks that the registration file names no
// builtin a package may redeclare, and imports under a prefixed name.
func TestRegistrationNames(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	named := types.NewNamed(types.NewTypeName(0, pkg, "T", nil), types.NewStruct(nil, nil), nil)
	pkg.Scope().Insert(named.Obj())
	s, err := testgen.NewSubject(pkg, &deps.TypePlan{Name: "T"})
	if err != nil {
		t.Fatal(err)
	}
	names := ChooseNames(pkg)
	src := Registration("p", names, []*testgen.Subject{s})
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("register.go", -1, len(src)), src, nil, 0)
	allowed := map[string]bool{"p": true, "T": true, names.Test: true, "nil": true,
		"Fatal": true, "init": true}
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT && !allowed[lit] && !strings.HasPrefix(lit, names.Prefix) {
			t.Errorf("registration file names %s:\n%s", lit, src)
		}
	}
}
