package harness

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// oldestGo is the oldest language version of a package the harness is
// added to.
const oldestGo = "go1.12"

// shadowable are the predeclared names a package under test plausibly
// declares at package level. The harness cannot prefix them, so it must
// not use them.
var shadowable = map[string]bool{
	"any": true, "min": true, "max": true, "clear": true, "new": true,
	"copy": true, "close": true, "delete": true, "cap": true,
	"print": true, "println": true, "complex": true, "real": true, "imag": true,
}

// checked is a type-checked set of files.
type checked struct {
	fset  *token.FileSet
	files []*ast.File
	info  *types.Info
}

// check type-checks the files srcs (name -> source) as one package at
// language version goVersion and returns the result with every error.
func check(t *testing.T, srcs map[string]string, goVersion string) (*checked, []error) {
	t.Helper()
	c := &checked{fset: token.NewFileSet(), info: &types.Info{
		Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{},
	}}
	var names []string
	for name := range srcs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f, err := parser.ParseFile(c.fset, name, srcs[name], parser.ParseComments)
		if err != nil {
			t.Fatalf("parsing %s: %v", name, err)
		}
		c.files = append(c.files, f)
	}
	var errs []error
	conf := types.Config{
		GoVersion: goVersion,
		Importer:  importer.Default(),
		Error:     func(err error) { errs = append(errs, err) },
	}
	_, _ = conf.Check("harness", c.fset, c.files, c.info)
	return c, errs
}

var (
	harnessOnce   sync.Once
	harnessResult *checked
	harnessErrs   []error
)

// checkHarness type-checks the harness files at oldestGo, once for all
// tests.
func checkHarness(t *testing.T) (*checked, []error) {
	t.Helper()
	harnessOnce.Do(func() { harnessResult, harnessErrs = check(t, harnessSources(t), oldestGo) })
	return harnessResult, harnessErrs
}

// harnessSources returns the files the driver adds to a package, as the
// go command sees them in a build without the race detector.
func harnessSources(t *testing.T) map[string]string { return embedded(t, false) }

// embedded returns the files the driver adds to a package; all of them, or
// without those built with the race detector only.
func embedded(t *testing.T, all bool) map[string]string {
	t.Helper()
	srcs := map[string]string{}
	err := fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := Files.ReadFile(p)
		if !all && strings.HasPrefix(string(b), "//go:build race\n") {
			// Type-checked as the !race variant; the race one calls
			// what package runtime declares in race builds only, and
			// TestGo112Package builds it with -race.
			return err
		}
		srcs[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatalf("reading the embedded harness: %v", err)
	}
	return srcs
}

// TestFilesComplete checks that Files holds every source file of the
// package but embed.go, so that no file the others need is left behind.
func TestFilesComplete(t *testing.T) {
	srcs := embedded(t, true)
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if p == "embed.go" || strings.HasSuffix(p, "_test.go") {
			continue
		}
		if _, ok := srcs[p]; !ok {
			t.Errorf("%s is not in Files (embed.go)", p)
		}
		delete(srcs, p)
	}
	for p := range srcs {
		t.Errorf("Files holds %s, which is not a source file of the package", p)
	}
}

// TestOldestLanguageVersion type-checks the harness at the oldest
// language version it supports: no generics, any, min, max, clear or
// range over integers.
func TestOldestLanguageVersion(t *testing.T) {
	// The check itself must reject what is newer than oldestGo.
	_, errs := check(t, map[string]string{"new.go": `package harness
func f(xs []int) (any, int) {
	for i := range 3 { _ = i }
	return nil, min(len(xs), 2)
}
`}, oldestGo)
	if len(errs) < 3 {
		t.Fatalf("checking at %s found %d errors in a file using any, min and range over int, want 3: %v",
			oldestGo, len(errs), errs)
	}
	_, errs = checkHarness(t)
	for _, err := range errs {
		t.Errorf("at %s: %v", oldestGo, err)
	}
}

// TestNoShadowableBuiltins checks that the harness uses none of the
// predeclared names a package may redeclare.
func TestNoShadowableBuiltins(t *testing.T) {
	uses := func(c *checked, errs []error) []string {
		if len(errs) > 0 {
			t.Fatalf("type errors: %v", errs)
		}
		var found []string
		for id, obj := range c.info.Uses {
			if obj.Parent() == types.Universe && shadowable[obj.Name()] {
				found = append(found, c.fset.Position(id.Pos()).String()+": "+id.Name)
			}
		}
		sort.Strings(found)
		return found
	}
	if got := uses(check(t, map[string]string{"x.go": `package harness
func f(xs []int) interface{} { p := new(int); copy(xs, xs); _ = p; var a any; return a }
`}, "")); len(got) != 3 {
		t.Fatalf("found %v in a file using new, copy and any, want 3 uses", got)
	}
	for _, u := range uses(checkHarness(t)) {
		t.Errorf("%s: a package under test may redeclare it", u)
	}
}

// TestNoLoopVariableCapture checks that no function literal refers to a
// variable declared by a for or range clause: before go1.22 such a
// variable is shared by all iterations.
func TestNoLoopVariableCapture(t *testing.T) {
	captures := func(c *checked, errs []error) []string {
		if len(errs) > 0 {
			t.Fatalf("type errors: %v", errs)
		}
		var found []string
		for _, f := range c.files {
			ast.Inspect(f, func(n ast.Node) bool {
				vars := map[types.Object]bool{}
				var body *ast.BlockStmt
				switch n := n.(type) {
				case *ast.RangeStmt:
					if n.Tok == token.DEFINE {
						for _, e := range []ast.Expr{n.Key, n.Value} {
							if id, ok := e.(*ast.Ident); ok && c.info.Defs[id] != nil {
								vars[c.info.Defs[id]] = true
							}
						}
					}
					body = n.Body
				case *ast.ForStmt:
					if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
						for _, e := range as.Lhs {
							if id, ok := e.(*ast.Ident); ok && c.info.Defs[id] != nil {
								vars[c.info.Defs[id]] = true
							}
						}
					}
					body = n.Body
				default:
					return true
				}
				ast.Inspect(body, func(n ast.Node) bool {
					lit, ok := n.(*ast.FuncLit)
					if !ok {
						return true
					}
					ast.Inspect(lit.Body, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok && vars[c.info.Uses[id]] {
							found = append(found, c.fset.Position(id.Pos()).String()+": "+id.Name)
						}
						return true
					})
					return true
				})
				return true
			})
		}
		return found
	}
	if got := captures(check(t, map[string]string{"x.go": `package harness
func f(xs []int) {
	for i, x := range xs { go func() { _, _ = i, x }() }
	for j := 0; j < 2; j++ { go func(j int) { _ = j }(j) }
	for k := 0; k < 2; k++ { defer func() { _ = k }() }
}
`}, oldestGo)); len(got) != 3 {
		t.Fatalf("found %v, want the 3 captures of i, x and k", got)
	}
	for _, c := range captures(checkHarness(t)) {
		t.Errorf("%s: a function literal captures a loop variable", c)
	}
}

// userDecls redeclares, at package level, the predeclared names a package
// under test may redeclare, and names of standard packages a package
// plausibly uses for its own variables.
const userDecls = `package harness

const debug = false

type any struct{}

func min(a, b int) int { return a }
func max(a, b int) int { return b }
func clear()           {}
func new() *any        { return &any{} }
func copy()            {}
func close()           {}
func delete()          {}
func cap()             {}
func print()           {}
func println()         {}
func complex()         {}
func real()            {}
func imag()            {}
`

// go112Test runs the harness in a package at go1.12, with the race
// detector: a concurrent test that passes and one that deadlocks.
const go112Test = `package harness

import (
	"sync"
	"testing"
	"time"
)

type pair struct {
	mu sync.Mutex
	n  int
}

func (p *pair) Add(d int) { p.mu.Lock(); p.n += d; p.mu.Unlock() }

func (p *pair) Swap(o *pair) {
	p.mu.Lock()
	defer p.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	o.mu.Lock()
	o.mu.Unlock()
}

func TestOld(t *testing.T) {
	r := NewRegistry()
	r.RegisterTypeOf("pair", (*pair)(nil))
	send := func(Message) error { return nil }
	ok := r.Do(Request{Op: OpRun, Watchdog: time.Second, Test: Test{Type: "pair", Objects: []Call{{}},
		Suffix: []Call{{Fn: "Add", Args: []Value{{K: KLit, Lit: "1"}}}, {Fn: "Add", Args: []Value{{K: KLit, Lit: "2"}}}},
		Iters:  50}}, send)
	if ok.Status != StatusOK {
		t.Errorf("Add/Add: %s %s", ok.Status, ok.Msg)
	}
	hang := r.Do(Request{Op: OpRun, Watchdog: 100 * time.Millisecond, Test: Test{Type: "pair", Objects: []Call{{}, {}},
		Suffix: []Call{{Recv: 0, Fn: "Swap", Args: []Value{{K: KObj, Obj: 1}}}, {Recv: 1, Fn: "Swap", Args: []Value{{K: KObj, Obj: 0}}}},
		Iters:  5}}, send)
	if hang.Status != StatusHang || hang.Waits[0] != "sync.Mutex.Lock" || hang.Waits[1] != "sync.Mutex.Lock" {
		t.Errorf("Swap/Swap: %s %q, want a hang in two lock waits", hang.Status, hang.Waits)
	}
}
`

// TestGo112Package builds and runs the harness with the go command in a
// module whose go line is go 1.12 (several popular modules still declare
// it), next to package-level declarations of
// the predeclared names a package may redeclare.
func TestGo112Package(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package with the race detector")
	}
	dir := t.TempDir()
	files := embedded(t, true)
	files["go.mod"] = "module example.com/old\n\ngo 1.12\n"
	files["user.go"] = userDecls
	files["old_test.go"] = go112Test
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-race", "-count=1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -race in a go 1.12 module: %v\n%s", err, out)
	}
}
