package child

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/testgen"
	"golang.org/x/tools/go/packages"
)

// loadTarget loads the package pattern names from the directory from, as
// the driver does.
func loadTarget(t *testing.T, from, pattern string) (*packages.Package, Target) {
	t.Helper()
	from, err := filepath.Abs(from)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := load.Packages(from, []string{pattern})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].GoFiles) == 0 {
		t.Fatalf("%s in %s: %d packages", pattern, from, len(pkgs))
	}
	pkg := pkgs[0]
	return pkg, Target{Dir: filepath.Dir(pkg.GoFiles[0]), Path: pkg.PkgPath, Module: ModuleOf(pkg.Module), From: from}
}

// buildChild builds the child of the package pattern names, loaded from
// the directory from, for type typ with the given methods.
func buildChild(t *testing.T, from, pattern, typ string, methods ...string) *Binary {
	t.Helper()
	pkg, target := loadTarget(t, from, pattern)
	var ms []deps.Method
	for _, m := range methods {
		ms = append(ms, deps.Method{Name: m})
	}
	s, err := testgen.NewSubject(pkg.Types, &deps.TypePlan{Name: typ, Methods: ms})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(context.Background(), t.TempDir(), target, []*testgen.Subject{s})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// serve starts a child of b, sends it req and kills it.
func serve(t *testing.T, b *Binary, req harness.Request) *Reply {
	t.Helper()
	p, err := Start(b)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	rep, err := p.Do(context.Background(), req, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// counterRequest runs Inc and Get of a Counter made by NewCounter
// concurrently.
func counterRequest() harness.Request {
	return harness.Request{Op: harness.OpRun, Watchdog: time.Second, HardCap: time.Minute,
		Test: harness.Test{Type: "Counter", Objects: []harness.Call{{Fn: "NewCounter"}},
			Suffix: []harness.Call{{Fn: "Inc"}, {Fn: "Get"}}, Iters: 5}}
}
