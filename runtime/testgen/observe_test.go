package testgen

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// TestLin checks how the linearizability oracle is set up for a test:
// the read-only methods whose parameters the suffixes fill observe each
// object, and calls whose outcome depends on timing turn it off.
func TestLin(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	put := harness.Call{Fn: "Put", Args: []harness.Value{{K: harness.KLit, Lit: "k"}, {K: harness.KLit, Lit: "1"}}}
	test := harness.Test{Type: "Map", Objects: []harness.Call{{}, {}}, Suffix: []harness.Call{put, {Fn: "Len"}}}
	lin := g.Lin(test)
	if lin == nil {
		t.Fatal("no oracle for Put ∥ Len")
	}
	// Len on both objects; not Bytes, whose parameters no suffix fills,
	// nor Get, which writes.
	if len(lin.Observers) != 2 || lin.Observers[0].Fn != "Len" || lin.Observers[1].Recv != 1 {
		t.Errorf("observers %+v, want Len on a and b", lin.Observers)
	}
	for _, suffix := range [][]harness.Call{
		{put, {Fn: "TryLock"}},
		{put, {Fn: "Each", Args: []harness.Value{{K: harness.KCtx, Lit: "timeout"}, {K: harness.KFunc}}}},
	} {
		if lin := g.Lin(harness.Test{Type: "Map", Objects: []harness.Call{{}}, Suffix: suffix}); lin != nil {
			t.Errorf("%s ∥ %s: oracle %+v, want none", suffix[0].Fn, suffix[1].Fn, lin)
		}
	}
	g.s.Docs = map[string]string{"Len": "Len returns the approximate number of entries."}
	if lin := g.Lin(test); lin != nil {
		t.Errorf("an approximate Len in the suffix: oracle %+v, want none", lin)
	}
	test.Suffix = []harness.Call{put, put}
	if lin := g.Lin(test); lin == nil || len(lin.Observers) != 0 {
		t.Errorf("Put ∥ Put with an approximate Len: oracle %+v, want one without observers", lin)
	}
}

// TestLinArbitraryAndClock checks that a method documented to pick an
// arbitrary element is not judged (map order decides its result), and
// that a method whose result depends on the clock is no observer.
func TestLinArbitraryAndClock(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	put := harness.Call{Fn: "Put", Args: []harness.Value{{K: harness.KLit, Lit: "k"}, {K: harness.KLit, Lit: "1"}}}
	g.s.Docs = map[string]string{"Len": "Len removes and returns an arbitrary item."}
	test := harness.Test{Type: "Map", Objects: []harness.Call{{}}, Suffix: []harness.Call{put, {Fn: "Len"}}}
	if lin := g.Lin(test); lin != nil {
		t.Errorf("an arbitrary choice in the suffix: oracle %+v, want none", lin)
	}
	g.s.Docs = map[string]string{"Len": "Submits a task to the pool and returns a future that can be used to wait for the task to complete."}
	if lin := g.Lin(test); lin != nil {
		t.Errorf("a call returning a future in the suffix: oracle %+v, want none", lin)
	}
	g.s.Docs = nil
	g.s.Clock = map[string]bool{"Len": true}
	test.Suffix = []harness.Call{put, put}
	if lin := g.Lin(test); lin == nil || len(lin.Observers) != 0 {
		t.Errorf("Put ∥ Put with a Len that reads the clock: oracle %+v, want one without observers", lin)
	}
}

// TestLinInFlight checks that a method documented to say whether another
// caller's call was in flight (singleflight's Do) is not judged by the
// oracle: its result depends on concurrency by design.
func TestLinInFlight(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	g.s.Docs = map[string]string{"Get": "Get returns the value, making sure that only one load is in-flight for a key."}
	test := harness.Test{Type: "Map", Objects: []harness.Call{{}}, Suffix: []harness.Call{{Fn: "Get", Args: []harness.Value{{K: harness.KLit, Lit: "k"}}}, {Fn: "Len"}}}
	if lin := g.Lin(test); lin != nil {
		t.Errorf("oracle %+v, want none", lin)
	}
}

// TestLinEventStats checks that counts of what calls did inside (a hit
// count, a hit rate) are neither observers nor compared results, while a
// snapshot of the state is an observer.
func TestLinEventStats(t *testing.T) {
	for _, tc := range []struct {
		name string
		stat bool
	}{{"HitCount", true}, {"MissCount", true}, {"LookupCount", true}, {"HitRate", true}, {"Misses", true}, {"RunningWorkers", true}, {"WaitingTasks", true}, {"Running", true}, {"Waiting", true}, {"Free", true}, {"CompletedTasks", true}, {"FailedTasks", true}, {"CanceledTasks", true}, {"Completed", false}, {"Failed", false},
		{"Stats", false}, {"Len", false}, {"Count", false}, {"Value", false}, {"Generate", false}} {
		if got := eventStatRE.MatchString(tc.name); got != tc.stat {
			t.Errorf("%s: event statistic %v, want %v", tc.name, got, tc.stat)
		}
	}
}

// TestLinDisplay checks that String and GoString, which render the
// object for people, are neither observers nor compared results, while
// methods whose names only begin so are.
func TestLinDisplay(t *testing.T) {
	for name, want := range map[string]bool{"String": true, "GoString": true, "Strings": false, "StringSlice": false, "Len": false} {
		if got := displayRE.MatchString(name); got != want {
			t.Errorf("%s: display %v, want %v", name, got, want)
		}
	}
}

// TestLinClocked checks that the oracle is off for a test whose objects
// or prefix are made with a deadline: a context that times out, given to
// a constructor through an option, or a duration under a second given to
// a constructor; a longer duration leaves it on.
func TestLinClocked(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	dur := types.NewNamed(types.NewTypeName(0, types.NewPackage("time", "time"), "Duration", nil), types.Typ[types.Int64], nil)
	sig := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewVar(0, nil, "ttl", dur), types.NewVar(0, nil, "opt", types.Typ[types.Int])), nil, false)
	g.s.Funcs = map[string]*Func{"NewTTL": {Name: "NewTTL", Sig: sig}, "WithContext": {Name: "WithContext",
		Sig: types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewVar(0, nil, "ctx", types.Typ[types.Int])), nil, false)}}
	put := harness.Call{Fn: "Put", Args: []harness.Value{{K: harness.KLit, Lit: "k"}, {K: harness.KLit, Lit: "1"}}}
	lit := func(s string) harness.Value { return harness.Value{K: harness.KLit, Lit: s} }
	ctx := harness.Value{K: harness.KCall, Call: &harness.Call{Fn: "WithContext",
		Args: []harness.Value{{K: harness.KCtx, Lit: "timeout"}}}}
	for _, tc := range []struct {
		name   string
		object harness.Call
		prefix []harness.Call
		on     bool
	}{
		{"a second", harness.Call{Fn: "NewTTL", Args: []harness.Value{lit("1000000000"), lit("0")}}, nil, true},
		{"no expiry", harness.Call{Fn: "NewTTL", Args: []harness.Value{lit("0"), lit("0")}}, nil, true},
		{"a millisecond", harness.Call{Fn: "NewTTL", Args: []harness.Value{lit("1000000"), lit("0")}}, nil, false},
		{"a context that times out", harness.Call{Fn: "NewTTL", Args: []harness.Value{lit("0"), ctx}}, nil, false},
		{"a prefix call with one", harness.Call{}, []harness.Call{{Fn: "Put",
			Args: []harness.Value{{K: harness.KCtx, Lit: "timeout"}, lit("1")}}}, false},
	} {
		test := harness.Test{Type: "Map", Objects: []harness.Call{tc.object}, Prefix: tc.prefix,
			Suffix: []harness.Call{put, {Fn: "Len"}}}
		if got := g.Lin(test) != nil; got != tc.on {
			t.Errorf("%s: oracle on = %v, want %v", tc.name, got, tc.on)
		}
	}
}

// TestPassesOwn checks that a call passing its own receiver is told,
// directly, inside a slice (a variadic Register(a)) or as an argument of
// the constructor of an argument, and that another object is not.
func TestPassesOwn(t *testing.T) {
	self := harness.Value{K: harness.KObj, Obj: 0}
	other := harness.Value{K: harness.KObj, Obj: 1}
	for _, tc := range []struct {
		arg  harness.Value
		want bool
	}{
		{self, true},
		{harness.Value{K: harness.KSlice, Elems: []harness.Value{other, self}}, true},
		{harness.Value{K: harness.KCall, Call: &harness.Call{Fn: "Wrap", Args: []harness.Value{self}}}, true},
		{other, false},
		{harness.Value{K: harness.KSlice, Elems: []harness.Value{other}}, false},
	} {
		if got := PassesOwn(harness.Call{Recv: 0, Fn: "Register", Args: []harness.Value{tc.arg}}); got != tc.want {
			t.Errorf("PassesOwn(Register(%+v)) = %v, want %v", tc.arg, got, tc.want)
		}
	}
}

// TestLinCallsOut checks that a method which runs a function it is given
// between critical sections (deps.Method.CallsOut) turns the oracle off:
// the caller's code runs in its middle by design.
func TestLinCallsOut(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	put := harness.Call{Fn: "Put", Args: []harness.Value{{K: harness.KLit, Lit: "k"}, {K: harness.KLit, Lit: "1"}}}
	test := harness.Test{Type: "Map", Objects: []harness.Call{{}}, Suffix: []harness.Call{put, {Fn: "Len"}}}
	if lin := g.Lin(test); lin == nil {
		t.Fatal("no oracle for Put ∥ Len")
	}
	for i := range g.s.Plan.Methods {
		if g.s.Plan.Methods[i].Name == "Put" {
			g.s.Plan.Methods[i].CallsOut = true
		}
	}
	if lin := g.Lin(test); lin != nil {
		t.Errorf("Put runs its caller's code between critical sections: oracle %+v, want none", lin)
	}
}

// TestObserversDetermined checks that an observer reading only what
// neither suffix call writes (a counter a background goroutine keeps) is
// not compared, and that one reading what a suffix writes is.
func TestObserversDetermined(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	put := harness.Call{Fn: "Put", Args: []harness.Value{{K: harness.KLit, Lit: "k"}, {K: harness.KLit, Lit: "1"}}}
	test := harness.Test{Type: "Map", Objects: []harness.Call{{}}, Suffix: []harness.Call{put, put}}
	set := func(name string, reads, writes []string) {
		m := g.s.Plan.Method(name)
		m.ReadLocs, m.WriteLocs = reads, writes
	}
	set("Put", []string{"T.m"}, []string{"T.m[*]"})
	set("Len", []string{"T.evictions"}, nil)
	if obs := g.Observers(test); len(obs) != 0 {
		t.Errorf("observers %+v, want none: Len reads what Put does not write", obs)
	}
	set("Len", []string{"T.m"}, nil)
	if obs := g.Observers(test); len(obs) != 1 || obs[0].Fn != "Len" {
		t.Errorf("observers %+v, want Len: it reads the map Put writes", obs)
	}
	set("Len", nil, nil)
	if obs := g.Observers(test); len(obs) != 1 {
		t.Errorf("observers %+v, want Len: without its locations it is taken to overlap", obs)
	}
}

// TestOwnImplementationsFirst checks that an interface parameter mostly
// gets a value of the package's own implementation, made by its
// constructor: what its users pass.
func TestOwnImplementationsFirst(t *testing.T) {
	const src = `package q

import "sync"

type Codec interface{ Encode(v int) []byte }

type jsonCodec struct{}

func (jsonCodec) Encode(v int) []byte { return nil }

func NewJSON() *jsonCodec { return &jsonCodec{} }

type Store struct{ mu sync.Mutex }

func (s *Store) Use(c Codec) {}
`
	pkg := checkSource(t, src)
	s, err := NewSubject(pkg, &deps.TypePlan{Name: "Store", Methods: []deps.Method{{Name: "Use"}}})
	if err != nil {
		t.Fatal(err)
	}
	g := New(s, Config{Seed: 1, Find: FindAll, Pairs: PairsDependent, MaxLen: 2})
	own := 0
	for range 100 {
		if c := g.fresh(0, "Use", []int{0}); c.Args[0].K == harness.KCall && c.Args[0].Call.Fn == "NewJSON" {
			own++
		}
	}
	if own < 75 {
		t.Errorf("%d of 100 Codec arguments made by NewJSON, want most", own)
	}
}

// TestNoSharedObjectAsAny checks that an empty-interface parameter never
// gets a shared object (a.Log(a) races with a's writes through the
// formatting of its argument), unless the package asserts such values to
// the type, while a parameter of an interface the type implements does.
func TestNoSharedObjectAsAny(t *testing.T) {
	const src = `package q

import "sync"

type Sizer interface{ Size() int }

type Log struct{ mu sync.Mutex; n int }

func (l *Log) Size() int { return l.n }

func (l *Log) Print(args ...any) {}

func (l *Log) Print1(arg any) {}

func (l *Log) Add(s Sizer) {}
`
	pkg := checkSource(t, src)
	s, err := NewSubject(pkg, &deps.TypePlan{Name: "Log", Methods: []deps.Method{{Name: "Print"}, {Name: "Print1"}, {Name: "Add"}}})
	if err != nil {
		t.Fatal(err)
	}
	g := New(s, Config{Seed: 1, Find: FindAll, Pairs: PairsDependent, MaxLen: 2})
	objs := map[string]int{}
	for range 100 {
		for _, m := range []string{"Print", "Print1", "Add"} {
			if c := g.fresh(0, m, []int{0}); slices.ContainsFunc(c.Args, func(a harness.Value) bool { return holdsObj(a, 0) }) {
				objs[m]++
			}
		}
	}
	if objs["Print"]+objs["Print1"] != 0 {
		t.Errorf("empty-interface arguments got the shared object %d and %d times in 100, want never", objs["Print"], objs["Print1"])
	}
	if objs["Add"] == 0 {
		t.Error("a Sizer argument never got the shared object")
	}
	// A package that asserts such values to the type itself expects it.
	s.Asserted = []types.Type{types.NewPointer(s.Type)}
	g = New(s, Config{Seed: 1, Find: FindAll, Pairs: PairsDependent, MaxLen: 2})
	got := 0
	for range 100 {
		if c := g.fresh(0, "Print1", []int{0}); slices.ContainsFunc(c.Args, func(a harness.Value) bool { return holdsObj(a, 0) }) {
			got++
		}
	}
	if got == 0 {
		t.Error("an any argument the package asserts to *Log never got the shared object")
	}
}

// TestTeardownNotInPrefix checks that a method ending the object's use
// is never called in a prefix: the concurrent calls would use a closed
// object.
func TestTeardownNotInPrefix(t *testing.T) {
	const src = `package q

import "sync"

type Conn struct {
	mu  sync.Mutex
	buf []byte
	closed bool
}

func (c *Conn) Write(b []byte) { c.mu.Lock(); c.buf = append(c.buf, b...); c.mu.Unlock() }
func (c *Conn) Close()         { c.mu.Lock(); c.closed = true; c.mu.Unlock() }
`
	pkg := checkSource(t, src)
	plan := &deps.TypePlan{Name: "Conn", Methods: []deps.Method{{Name: "Close", Writes: 1}, {Name: "Write", Writes: 1}},
		Pairs: []deps.Pair{{M1: "Close", M2: "Write", Deps: []string{deps.DepPC}}, {M1: "Write", M2: "Write", Deps: []string{deps.DepPC}}}}
	s, err := NewSubject(pkg, plan)
	if err != nil {
		t.Fatal(err)
	}
	g := New(s, Config{Seed: 1, Find: FindAll, Pairs: PairsDependent, MaxLen: 4})
	suffix := 0
	for range 40 {
		c := g.Next()
		for _, p := range c.Test.Prefix {
			if p.Fn == "Close" {
				t.Fatalf("Close in a prefix: %+v", c.Test.Prefix)
			}
		}
		for _, call := range c.Test.Suffix {
			if call.Fn == "Close" {
				suffix++
			}
		}
	}
	if suffix == 0 {
		t.Error("Close never called concurrently")
	}
}

// checkSource type-checks src, the file of package example.com/q.
func checkSource(t *testing.T, src string) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "q.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.ForCompiler(fset, "source", nil)}).Check("example.com/q", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// TestLinNotForServe checks that a test one of whose calls takes a
// listener, or a request, that the other call's return ends is not
// judged for linearizability: a Serve that a concurrent Close stops has
// no sequential order.
func TestLinNotForServe(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	for _, k := range []string{harness.KListener, harness.KRequest} {
		put := harness.Call{Fn: "Put", Args: []harness.Value{{K: harness.KLit, Lit: "k"}, {K: harness.KLit, Lit: "1"}}}
		serve := harness.Call{Fn: "Put", Args: []harness.Value{{K: k}, {K: harness.KLit, Lit: "1"}}}
		test := harness.Test{Type: "Map", Objects: []harness.Call{{}}, Suffix: []harness.Call{put, serve}}
		if lin := g.Lin(test); lin != nil {
			t.Errorf("a call given a %s value is judged for linearizability", k)
		}
	}
}
