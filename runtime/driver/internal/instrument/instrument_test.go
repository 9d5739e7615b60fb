package instrument

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const src = `package p

import "sync"

type Cache struct {
	mu    sync.RWMutex
	items map[string]int
	hits  int
}

type Embedded struct {
	sync.Mutex
	n int
}

// Get reads under the read lock.
func (c *Cache) Get(k string) (int, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.items[k]
	return v, ok
}

// Put checks, then acts in a second section.
func (c *Cache) Put(k string, v int) {
	if _, ok := c.Get(k); ok {
		return
	}
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
	c.hits++
}

func (e *Embedded) Inc() int {
	e.Lock()
	e.n++
	e.Unlock()
	return e.n
}

func (c *Cache) Wait(ch chan int, k string) {
	select {
	case ch <- c.hits:
	default:
		c.hits++
	}
	switch k {
	case "":
		c.hits--
	}
}

func (e *Embedded) Ignored() {
	f := func() *sync.Mutex { return &e.Mutex }
	f().Lock() // not pure: left alone
	f().Unlock()
}
`

func rewrite(t *testing.T, want Want) (*Result, string) {
	t.Helper()
	return rewriteSrc(t, src, want)
}

func rewriteSrc(t *testing.T, src string, want Want) (*Result, string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/src/p/p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{},
		Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	res, err := Rewrite(fset, []*ast.File{f}, info, func(string) ([]byte, error) { return []byte(src), nil },
		HooksWithPrefix("depconH"), want)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(res.Files["p.go"])
}

func TestRewritePlacesHooks(t *testing.T) {
	res, out := rewrite(t, Want{Fields: map[string]bool{"hits": true}, Positions: []string{"/src/p/p.go:26:15"}})
	for _, want := range []string{
		// the read lock: a point, a TryRLock with the wait, Locked
		"depconHPoint(1); if !c.mu.TryRLock() { depconHWait(2, c.mu.RLock) }; depconHLocked(3)",
		// the deferred release
		"defer depconHUnlock(c.mu.RUnlock, 4)",
		// the position given (the check of Put) and the field hits
		"depconHPoint(5); if _, ok := c.Get(k); ok {",
		"c.mu.Unlock(); depconHUnlocked(9)",
		"depconHPoint(10); c.hits++",
		// a promoted mutex
		"if !e.TryLock() { depconHWait(12, e.Lock) }",
		// an impure receiver keeps its Lock, its Unlock gets a hook
		"f().Lock() // not pure",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the rewriting lacks %q:\n%s", want, out)
		}
	}
	if got, want := strings.Count(out, "\n"), strings.Count(src, "\n"); got != want {
		t.Errorf("the rewriting has %d lines, want %d (every statement on its line)", got, want)
	}
	if id := res.At["/src/p/p.go:26:15"]; id != 5 || res.Site(id).Kind != KindPoint || res.Site(id).Func != "(*Cache).Put" {
		t.Errorf("position 26:15 is at site %d (%+v), want point 5 in (*Cache).Put", id, res.Site(id))
	}
	kinds := map[string]int{}
	for i, s := range res.Sites {
		if s.ID != i+1 {
			t.Fatalf("site %d has ID %d", i+1, s.ID)
		}
		kinds[s.Kind]++
	}
	if kinds[KindLock] != 3 || kinds[KindWait] != 3 || kinds[KindLocked] != 3 || kinds[KindUnlocked] != 4 {
		t.Errorf("sites by kind %v, want 3 lock/wait/locked (RLock, Lock, promoted Lock) and 4 unlocked", kinds)
	}
}

func TestRewriteLeavesUnwantedAlone(t *testing.T) {
	_, out := rewrite(t, Want{})
	if strings.Contains(out, "c.hits++;") || strings.Contains(out, "depconHPoint(5); if _, ok") {
		t.Errorf("statements without wanted fields or positions got points:\n%s", out)
	}
}

const calleeSrc = `package p

import (
	"sync"
	"sync/atomic"
)

var table []string

type Index struct {
	mu    sync.Mutex
	n     atomic.Int64
	names []string
	ch    chan int
}

func (x *Index) Add(s string) {
	x.mu.Lock()
	x.publish(s)
	x.mu.Unlock()
}

func (x *Index) publish(s string) {
	x.n.Add(1)
	x.names = append(x.names, s)
	note(s)
}

func note(s string) {
	table = append(table, s)
}

func (x *Index) Drain() int {
	var total int64
	for v := range x.ch {
		total += int64(v)
	}
	atomic.AddInt64(&total, 1)
	close(x.ch)
	return int(total) + <-x.ch
}
`

// TestRewritePointsInCallees checks that points go before the
// synchronising operations (atomics, channels) and the accesses of
// wanted package-level variables of every function, and that sites
// record the fields and the package's functions their statements reach.
func TestRewritePointsInCallees(t *testing.T) {
	res, out := rewriteSrc(t, calleeSrc, Want{Fields: map[string]bool{"names": true, "table": true}})
	for _, want := range []string{
		"depconHPoint(5); x.n.Add(1)",
		"depconHPoint(6); x.names = append(x.names, s)",
		"depconHPoint(7); table = append(table, s)",
		"depconHPoint(8); for v := range x.ch {",
		"depconHPoint(9); atomic.AddInt64(&total, 1)",
		"depconHPoint(10); close(x.ch)",
		"depconHPoint(11); return int(total) + <-x.ch",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the rewriting lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "); x.publish(s)") {
		t.Errorf("a point before the call of publish, which no position wants:\n%s", out)
	}
	if s := res.Site(6); s == nil || len(s.Fields) != 1 || s.Fields[0] != "names" {
		t.Errorf("site 6 is %+v, want a point accessing names", s)
	}
	if s := res.Site(7); s == nil || len(s.Fields) != 1 || s.Fields[0] != "table" || s.Func != "note" {
		t.Errorf("site 7 is %+v, want a point in note accessing the variable table", s)
	}
	if got := res.Calls["(*Index).Add"]; len(got) != 1 || got[0] != "(*Index).publish" {
		t.Errorf("Add calls %v, want [(*Index).publish]", got)
	}
	if got := res.Calls["(*Index).publish"]; len(got) != 1 || got[0] != "note" {
		t.Errorf("publish calls %v, want [note]", got)
	}
}

// TestReached checks the functions reached from a point whose statement
// calls into the package.
func TestReached(t *testing.T) {
	res, _ := rewriteSrc(t, calleeSrc, Want{Positions: []string{"/src/p/p.go:19:2"}})
	id := res.At["/src/p/p.go:19:2"]
	if id == 0 {
		t.Fatal("no point at the call of publish")
	}
	if got := res.Reached(id); strings.Join(got, " ") != "(*Index).publish note" {
		t.Errorf("Reached = %v, want [(*Index).publish note]", got)
	}
	if got := res.Reached(0); got != nil {
		t.Errorf("Reached(0) = %v, want nil", got)
	}
}

// hookFile declares the hooks as the harness does (runtime/harness/hook.go).
const hookFile = `package p

func depconHPoint(int)                  {}
func depconHLocked(int)                 {}
func depconHUnlocked(int)               {}
func depconHWait(_ int, lock func())    { lock() }
func depconHUnlock(unlock func(), _ int) { unlock() }
`

// TestRewrittenBuilds builds the rewritten package with the go command in
// modules whose go lines are 1.13, 1.18 and this toolchain's.
func TestRewrittenBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	// The select and switch clauses access hits: the points go before
	// the select and the statements of the clauses, never before a case.
	_, out := rewrite(t, Want{Fields: map[string]bool{"hits": true, "n": true, "items": true},
		Positions: []string{"/src/p/p.go:58:7"}})
	for _, goLine := range []string{"1.13", "1.18", strings.TrimPrefix(goVersion(t), "go")} {
		dir := t.TempDir()
		files := map[string]string{"go.mod": "module example.com/p\n\ngo " + goLine + "\n", "p.go": out, "hooks.go": hookFile}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s: the rewritten package does not build: %v\n%s", goLine, err, b)
		}
	}
}

func goVersion(t *testing.T) string {
	b, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	v := strings.TrimSpace(string(b))
	// go1.26.8 → go1.26: a go line names a language version.
	if parts := strings.Split(v, "."); len(parts) > 2 {
		v = strings.Join(parts[:2], ".")
	}
	return v
}
