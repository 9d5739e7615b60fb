package testgen

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

const src = `package p

import (
	"context"
	"errors"
	"sync"
)

type Options struct{ Size int }

func NewOptions(size int) *Options { return &Options{Size: size} }

type Map struct {
	sync.Mutex
	m map[string]int
}

func NewMap() *Map { return &Map{m: map[string]int{}} }

func NewMapSized(n int, o *Options) (*Map, error) {
	if n < 0 {
		return nil, errors.New("negative")
	}
	return NewMap(), nil
}

func (m *Map) Put(k string, v int)                      {}
func (m *Map) Get(k string) int                         { return 0 }
func (m *Map) Len() int                                 { return 0 }
func (m *Map) Equal(o *Map) bool                        { return false }
func (m *Map) Each(ctx context.Context, f func(string)) {}
func (m *Map) Bytes(b []byte, flag bool, u uint8) any   { return nil }

type Cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func NewCache[K comparable, V any](n int) *Cache[K, V] { return &Cache[K, V]{} }

func (c *Cache[K, V]) Put(k K, v V) {}
`

func load(t *testing.T) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// mapPlan is a hand-built plan of Map: Put conflicts with Get and Len,
// and Equal is double-lock dependent on itself with two objects.
func mapPlan() *deps.TypePlan {
	var ms []deps.Method
	for _, m := range []string{"Bytes", "Each", "Equal", "Get", "Len", "Lock", "Put", "TryLock", "Unlock"} {
		writes := 1
		if m == "Len" || m == "Bytes" {
			writes = 0 // read-only
		}
		ms = append(ms, deps.Method{Name: m, Accesses: 1, Writes: writes})
	}
	return &deps.TypePlan{Name: "Map", Concurrent: true, Methods: ms, PairsTotal: 45, Pairs: []deps.Pair{
		{M1: "Equal", M2: "Equal", Deps: []string{deps.DepD}, TwoObjects: true},
		{M1: "Get", M2: "Put", Deps: []string{deps.DepPC}},
		{M1: "Len", M2: "Put", Deps: []string{deps.DepPC}},
	}}
}

func newGen(t *testing.T, cfg Config) *Generator {
	t.Helper()
	s, err := NewSubject(load(t), mapPlan())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Find == "" {
		cfg.Find = FindAll
	}
	if cfg.Pairs == "" {
		cfg.Pairs = PairsDependent
	}
	if cfg.MaxLen == 0 {
		cfg.MaxLen = 4
	}
	return New(s, cfg)
}

func TestSubject(t *testing.T) {
	pkg := load(t)
	s, err := NewSubject(pkg, mapPlan())
	if err != nil {
		t.Fatal(err)
	}
	// Lock, Unlock and TryLock are promoted from sync.Mutex.
	if got, want := strings.Join(s.Names, " "), "Bytes Each Equal Get Len Put"; got != want {
		t.Errorf("methods %s, want %s", got, want)
	}
	var ctors []string
	for _, f := range s.Ctors {
		ctors = append(ctors, f.Name)
	}
	if got, want := strings.Join(ctors, " "), "NewMap NewMapSized"; got != want {
		t.Errorf("constructors %s, want %s", got, want)
	}
	if s.Funcs["NewOptions"] == nil {
		t.Errorf("NewOptions is not a constructor for arguments")
	}
	if !s.Linker("Equal") || s.Linker("Get") {
		t.Errorf("Linker(Equal) = %v, Linker(Get) = %v, want true, false", s.Linker("Equal"), s.Linker("Get"))
	}

	c, err := NewSubject(pkg, &deps.TypePlan{Name: "Cache", Methods: []deps.Method{{Name: "Put"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.TypeExpr(), "Cache[int, int]"; got != want {
		t.Errorf("generic type: %s, want %s", got, want)
	}
	if len(c.Ctors) != 1 || c.Ctors[0].Expr != "NewCache[int, int]" {
		t.Errorf("generic constructors: %v, want NewCache[int, int]", c.Ctors)
	}
	if _, err := NewSubject(pkg, &deps.TypePlan{Name: "Nope"}); err == nil {
		t.Errorf("no error for a missing type")
	}
}

func TestDeterministic(t *testing.T) {
	run := func(seed uint64) string {
		g := newGen(t, Config{Seed: seed, Iters: 10})
		var out []string
		for range 30 {
			b, _ := json.Marshal(g.Next().Test)
			out = append(out, string(b))
		}
		return strings.Join(out, "\n")
	}
	a, b, c := run(1), run(1), run(2)
	if a != b {
		t.Errorf("two generators with seed 1 differ")
	}
	if a == c {
		t.Errorf("seeds 1 and 2 give the same tests")
	}
}

func TestLeastCoveredFirst(t *testing.T) {
	g := newGen(t, Config{Seed: 3, Iters: 1})
	if n := len(g.Targets()); n != 3 {
		t.Fatalf("%d targets, want 3: %v", n, g.Targets())
	}
	count := map[*Target]int{}
	for i := range 18 {
		c := g.Next()
		count[c.Target]++
		// Two tests per target in a row: constructor only, then changers.
		if plain := i%2 == 0; plain != (len(c.Test.Prefix) == 0) {
			t.Errorf("test %d: prefix %v, want plain=%v", i, c.Test.Prefix, plain)
		}
		// No target is tested a (k+1)th round before all had k rounds.
		lo, hi := 1<<30, 0
		for _, tg := range g.Targets() {
			lo, hi = min(lo, count[tg]), max(hi, count[tg])
		}
		if hi-lo > 2 {
			t.Fatalf("after %d tests, coverage ranges from %d to %d", i+1, lo, hi)
		}
	}
}

// TestRank: the targets of the lowest rank are the only ones tested
// while there are any; then the others are.
func TestRank(t *testing.T) {
	g := newGen(t, Config{Seed: 3, Iters: 1})
	ts := g.Targets()
	done := 0
	g.Rank(func(tg *Target) int {
		if tg == ts[1] && done < 6 {
			return 0
		}
		return 1
	})
	for i := range 6 {
		if c := g.Next(); c.Target != ts[1] {
			t.Fatalf("test %d of %v, want %v first", i, c.Target, ts[1])
		}
		done++
	}
	seen := map[*Target]bool{}
	for range 12 {
		seen[g.Next().Target] = true
	}
	if !seen[ts[0]] || !seen[ts[2]] {
		t.Errorf("after the first ones, tested %v, want the others too", seen)
	}
}

func TestPrefixRules(t *testing.T) {
	g := newGen(t, Config{Seed: 5, Iters: 1, MaxLen: 3})
	for range 200 {
		c := g.Next()
		tg, test := c.Target, c.Test
		if len(test.Objects) != tg.Objects {
			t.Fatalf("%v: %d objects", tg, len(test.Objects))
		}
		for _, o := range test.Objects {
			if o.Fn != "NewMap" && o.Fn != "NewMapSized" {
				t.Errorf("%v: object built by %q, want a constructor", tg, o.Fn)
			}
		}
		if len(test.Prefix) > 3 {
			t.Errorf("%v: prefix of %d calls, more than -maxlen", tg, len(test.Prefix))
		}
		if len(test.Prefix) > 0 && !slices.ContainsFunc(test.Prefix, func(c harness.Call) bool {
			return g.conflicting(tg, c.Fn)
		}) {
			t.Errorf("%v: no prefix call conflicts with the suffixes: %v", tg, test.Prefix)
		}
		for _, p := range test.Prefix {
			if p.Fn == "Len" || p.Fn == "Bytes" {
				t.Errorf("%v: prefix calls %s, which changes no state", tg, p.Fn)
			}
		}
		if tg.Objects == 2 {
			s := test.Suffix
			if s[0].Recv != 0 || s[1].Recv != 1 || !isObj(s[0].Args[0], 1) || !isObj(s[1].Args[0], 0) {
				t.Errorf("%v: suffixes %v, want a.Equal(b) and b.Equal(a)", tg, s)
			}
			if len(test.Prefix) >= 2 {
				p := test.Prefix
				if p[0].Fn != "Equal" || p[1].Fn != "Equal" || p[0].Recv != 0 || p[1].Recv != 1 ||
					p[0].Args[0].Obj != 1 || p[1].Args[0].Obj != 0 {
					t.Errorf("%v: prefix does not start with a.Equal(b), b.Equal(a): %v", tg, p)
				}
			}
		}
	}
}

func isObj(v harness.Value, i int) bool { return v.K == harness.KObj && v.Obj == i }

func TestModes(t *testing.T) {
	for _, tc := range []struct {
		mode, pairs string
		want        int
	}{
		{FindExceptions, PairsDependent, 2},
		{FindDeadlocks, PairsDependent, 1},
		{FindAll, PairsDependent, 3},
		{FindExceptions, PairsAll, 21}, // 6 methods: 6*7/2 pairs, one object
		{FindAll, PairsAll, 42},        // and two objects
	} {
		g := newGen(t, Config{Seed: 1, Find: tc.mode, Pairs: tc.pairs})
		if n := len(g.Targets()); n != tc.want {
			t.Errorf("-find %s -pairs %s: %d targets, want %d", tc.mode, tc.pairs, n, tc.want)
		}
	}
}

// TestCtorProbes checks construction that learns from failure: the
// later probes of a constructor grow its numbers through powers of two
// and make its strings fresh, a second object may get fresh strings, and
// the arguments of a probe that worked build the later objects most of
// the time.
func TestCtorProbes(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Find: FindExceptions})
	var sized *Func
	for _, f := range g.s.Ctors {
		if f.Name == "NewMapSized" {
			sized = f
		}
	}
	if sized == nil {
		t.Fatal("no constructor NewMapSized")
	}
	for attempt, want := range map[int]string{growFrom: "8", growFrom + 1: "64", growFrom + 2: "512"} {
		p := g.CtorProbe(sized, attempt, false)
		if got := p.Objects[0].Args[0]; got.K != harness.KLit || got.Lit != want {
			t.Errorf("probe %d: argument %+v, want %s", attempt, got, want)
		}
		if !reflect.DeepEqual(p.Objects[0], p.Objects[1]) {
			t.Errorf("probe %d: the two objects differ: %+v", attempt, p.Objects)
		}
	}
	worked := harness.Call{Fn: "NewMapSized", Args: []harness.Value{{K: harness.KLit, Lit: "64"}}}
	slow := harness.Call{Fn: "NewMapSized", Args: []harness.Value{{K: harness.KLit, Lit: "512"}}}
	g.CtorWorked(slow, time.Second)
	g.CtorWorked(worked, time.Millisecond)
	g.CtorResult("NewMap", false)
	g.DropCtor("NewMap")
	known := 0
	for range 40 {
		if c := g.object(0); reflect.DeepEqual(c, worked) {
			known++
		}
	}
	if known < 20 || known == 40 {
		t.Errorf("%d of 40 objects built with the fastest arguments that worked, want about three in four", known)
	}
}

func TestFeedback(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Find: FindExceptions})
	for range CtorProbes {
		g.CtorResult("NewMap", false)
		g.CtorResult("NewMapSized", false)
	}
	if c := g.Next(); c.Test.Objects[0].Fn != "" {
		t.Errorf("constructors failed, but object built by %q, want the zero value", c.Test.Objects[0].Fn)
	}
	g.NoPrefix("Put")
	g.Exclude("Get")
	for range 10 {
		c := g.Next()
		if c.Target.M1 == "Get" || c.Target.M2 == "Get" {
			t.Fatalf("excluded method Get still tested: %v", c.Target)
		}
		for _, p := range c.Test.Prefix {
			if p.Fn == "Put" || p.Fn == "Get" {
				t.Fatalf("prefix calls %s", p.Fn)
			}
		}
	}
	g.Exclude("Put")
	if c := g.Next(); c != nil {
		t.Errorf("all targets excluded, but got %v", c.Target)
	}
}

func TestValues(t *testing.T) {
	g := newGen(t, Config{Seed: 1})
	seen := map[string]bool{}
	for range 200 {
		c := g.call(0, "Bytes", []int{0})
		b, _ := json.Marshal(c.Args)
		seen[string(b)] = true
		if len(c.Args) != 3 {
			t.Fatalf("Bytes: %d arguments", len(c.Args))
		}
		if k := c.Args[0].K; k != harness.KSlice && k != harness.KZero {
			t.Errorf("[]byte argument of kind %s", k)
		}
		if l := c.Args[2].Lit; l == "-1" || l == "min" {
			t.Errorf("uint8 argument %s", l)
		}
	}
	if len(seen) < 20 {
		t.Errorf("only %d different argument lists for Bytes", len(seen))
	}
	c := g.call(0, "Each", nil)
	if c.Args[0].K != harness.KCtx || c.Args[1].K != harness.KFunc {
		t.Errorf("Each(ctx, f): got %v, want context and no-op func", c.Args)
	}
	for range 20 {
		c := g.object(0)
		if c.Fn == "NewMapSized" && (c.Args[1].K != harness.KCall || c.Args[1].Call.Fn != "NewOptions") {
			t.Errorf("*Options argument %v, want NewOptions(...)", c.Args[1])
		}
	}
}

// TestSharedKeys checks that about every other test has method calls
// that all use the same key: Put(k) in a prefix and Get(k) in a suffix
// meet on one map entry.
func TestSharedKeys(t *testing.T) {
	g := newGen(t, Config{Seed: 3, Iters: 1, MaxLen: 3})
	shared, tests := 0, 0
	for range 400 {
		c := g.Next()
		var keys []string
		for _, call := range append(append([]harness.Call(nil), c.Test.Prefix...), c.Test.Suffix...) {
			if (call.Fn == "Put" || call.Fn == "Get") && len(call.Args) > 0 {
				keys = append(keys, call.Args[0].Lit)
			}
		}
		if len(keys) < 3 {
			continue
		}
		tests++
		if !slices.ContainsFunc(keys, func(k string) bool { return k != keys[0] }) && keys[0] != "" {
			shared++
		}
	}
	if tests == 0 || shared < tests/3 || shared == tests {
		t.Errorf("%d of %d tests with three or more keyed calls share one non-empty key, want about half", shared, tests)
	}
}

// TestReached: the arguments of a call that reached a site no call of its
// method had reached are reused by later calls of the method, about half
// of them; a call reaching only known sites, or one naming the test's
// objects, leaves none.
func TestReached(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 1})
	put := func(k string) harness.Call {
		return harness.Call{Fn: "Put", Args: []harness.Value{{K: harness.KLit, Lit: k}, {K: harness.KLit, Lit: "7"}}}
	}
	if !g.Reached(put("first"), []int{3}) || g.Reached(put("again"), []int{3}) {
		t.Fatalf("Reached: want a new site the first time only")
	}
	if !g.Reached(harness.Call{Fn: "Put", Args: []harness.Value{{K: harness.KObj}, {K: harness.KLit, Lit: "1"}}},
		[]int{3, 4}) {
		t.Fatalf("Reached: site 4 is new")
	}
	seeded := 0
	for range 200 {
		c := g.call(0, "Put", []int{0})
		if c.Args[0].Lit == "again" || c.Args[0].K == harness.KObj {
			t.Fatalf("call %v reuses arguments that reached no new site, or name an object", c)
		}
		if c.Args[0].Lit == "first" && c.Args[1].Lit == "7" {
			seeded++
		}
	}
	if seeded < 60 || seeded > 140 {
		t.Errorf("%d of 200 calls of Put reuse the seed, want about half", seeded)
	}
	if test, ok := g.ArgProbe("Put"); !ok || len(test.Suffix) != 2 || test.Suffix[0].Fn != "Put" {
		t.Errorf("ArgProbe(Put) = %+v, %v", test, ok)
	}
}

// TestShareArguments checks that the suffix calls draw arguments from
// those the prefix passed for parameters of the same type: the key a
// prefix Put stored is the one the concurrent calls often name.
func TestShareArguments(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Find: FindExceptions})
	key := harness.Value{K: harness.KLit, Lit: "registered"}
	both := 0
	for range 200 {
		test := harness.Test{Type: "Map", Objects: []harness.Call{{}},
			Prefix: []harness.Call{{Fn: "Put", Args: []harness.Value{key, {K: harness.KLit, Lit: "1"}}}},
			Suffix: []harness.Call{g.fresh(0, "Get", []int{0}), g.fresh(0, "Get", []int{0})}}
		g.share(&test)
		if reflect.DeepEqual(test.Suffix[0].Args[0], key) && reflect.DeepEqual(test.Suffix[1].Args[0], key) {
			both++
		}
	}
	if both < 30 {
		t.Errorf("both calls named the prefix's key in %d of 200 tests, want about a quarter", both)
	}
}

// TestConsumes checks the documentation that makes a method take what it
// is given: its calls share no object.
func TestConsumes(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	g.s.Docs = map[string]string{
		"Put":  "Put returns the buffer to the pool. The buffer mustn't be accessed after returning to the pool.",
		"Give": "Give takes ownership of b.",
		"Add":  "Add adds v; the set may be read after the call.",
	}
	for m, want := range map[string]bool{"Put": true, "Give": true, "Add": false, "Get": false} {
		if got := g.consumes(m); got != want {
			t.Errorf("consumes(%s) = %v, want %v", m, got, want)
		}
	}
}

// TestFailsOn checks that the tests calling a method that panicked on an
// object of one constructor, and worked on another's, build their
// objects with the latter, and that the other tests still use every
// constructor.
func TestFailsOn(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	g.FailsOn("Get", "NewMap")
	stillNewMap := false // a failure alone may be the arguments'
	for range 100 {
		if c := g.Next(); c != nil && (c.Target.M1 == "Get" || c.Target.M2 == "Get") {
			stillNewMap = stillNewMap || slices.ContainsFunc(c.Test.Objects, func(o harness.Call) bool { return o.Fn == "NewMap" })
		}
	}
	if !stillNewMap {
		t.Error("Get's tests avoid NewMap before Get has worked on another constructor's objects")
	}
	g.WorksOn("Get", "NewMapSized")
	used := map[bool]map[string]bool{true: {}, false: {}}
	for range 200 {
		c := g.Next()
		if c == nil {
			break
		}
		get := c.Target.M1 == "Get" || c.Target.M2 == "Get"
		for _, o := range c.Test.Objects {
			used[get][o.Fn] = true
		}
	}
	if used[true]["NewMap"] || !used[true]["NewMapSized"] {
		t.Errorf("constructors of Get's tests %v, want NewMapSized only", used[true])
	}
	if !used[false]["NewMap"] || !used[false]["NewMapSized"] {
		t.Errorf("constructors of the other tests %v, want both", used[false])
	}
}

// TestExportedCtorsFirst checks that the package's unexported helpers
// build objects only when no exported function does: newCache returns a
// cache that New completes, one no user gets.
func TestExportedCtorsFirst(t *testing.T) {
	pkg, err := loadSrc(t, `package p

import "sync"

type Cache struct {
	mu sync.Mutex
	ch chan int
}

func newCache() *Cache { return &Cache{} }

func New() *Cache {
	c := newCache()
	c.ch = make(chan int, 1)
	return c
}

type Pool struct{ mu sync.Mutex }

func newPool() *Pool { return &Pool{} }
`)
	if err != nil {
		t.Fatal(err)
	}
	for typ, want := range map[string][]string{"Cache": {"New"}, "Pool": {"newPool"}} {
		s, err := NewSubject(pkg, &deps.TypePlan{Name: typ})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range s.Ctors {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: constructors %q, want %q", typ, got, want)
		}
	}
}
