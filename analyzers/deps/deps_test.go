package deps_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/analyzers/internal/testpkgs"
	"github.com/depcon/depcon/analyzers/unguarded"
)

// runDeps runs the analyzer on pkg and checks the counts of its plan
// against the line "// plan: T: |M|=3 pc=1 d=0; …" at the top of one of
// the package's files, when one has it.
func runDeps(t *testing.T, pkg string) []*analysistest.Result {
	t.Helper()
	dir := testdata(t, pkg)
	results := analysistest.Run(t, dir, deps.Analyzer, pkg)
	files, _ := filepath.Glob(filepath.Join(dir, "src", pkg, "*.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		line, _, _ := strings.Cut(string(data), "\n")
		if want, ok := strings.CutPrefix(line, "// plan: "); ok {
			if got := results[0].Result.(*deps.Plan).String(); got != want {
				t.Errorf("%s: plan\n got  %s\n want %s", pkg, got, want)
			}
		}
	}
	return results
}

// testdata returns the root that holds pkg: the analyzer's testdata, or
// the repository's for the packages the commands' tests load too.
func testdata(t *testing.T, pkg string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(analysistest.TestData(), "src", pkg)); err == nil {
		return analysistest.TestData()
	}
	return testpkgs.Dir(t)
}

// The results of runDeps on packages several tests read, computed once.
var (
	cachedMu sync.Mutex
	cached   = map[string][]*analysistest.Result{}
)

// runDepsOnce is runDeps, run once per package for all the tests.
func runDepsOnce(t *testing.T, pkg string) []*analysistest.Result {
	t.Helper()
	cachedMu.Lock()
	defer cachedMu.Unlock()
	if r, ok := cached[pkg]; ok {
		return r
	}
	r := runDeps(t, pkg)
	cached[pkg] = r
	return r
}

// plan runs the analyzer on pkg and returns the plan of type name.
func plan(t *testing.T, pkg, name string) *deps.TypePlan {
	t.Helper()
	results := runDeps(t, pkg)
	if len(results) != 1 {
		t.Fatalf("%d results", len(results))
	}
	p := results[0].Result.(*deps.Plan).Type(name)
	if p == nil {
		t.Fatalf("no plan for %s.%s", pkg, name)
	}
	return p
}

// pairs renders the dependent pairs as "M1~M2:deps" lines.
func pairs(tp *deps.TypePlan) []string {
	var out []string
	for _, p := range tp.Pairs {
		out = append(out, p.M1+"~"+p.M2+":"+p.JoinDeps())
	}
	return out
}

func checkPairs(t *testing.T, tp *deps.TypePlan, want ...string) {
	t.Helper()
	got := pairs(tp)
	if !slices.Equal(got, want) {
		t.Errorf("%s pairs:\n got  %s\n want %s", tp.Name, strings.Join(got, " "), strings.Join(want, " "))
	}
}

// TestEntryHeld checks that the lock a helper releases for its caller
// (held on entry as far as the helper's summary goes) is not taken as
// held in a caller that does not hold it: Reset's write through the
// helper conflicts with Get's locked read. In Set, which holds it, the
// helper's write before the unlock is guarded: Get ∥ Set and Set ∥ Set
// are not dependent.
func TestEntryHeld(t *testing.T) {
	tp := plan(t, "entryheld", "Gauge")
	checkPairs(t, tp, "Get~Reset:pc", "Reset~Reset:pc", "Reset~Set:pc")
	// Locked's exported Lock lets callers of other packages take its
	// lock: SetAndUnlock is entered holding it.
	checkPairs(t, plan(t, "entryheld", "Locked"))
}

// TestNoReturn checks that a path ending in a call that never returns
// (a helper calling os.Exit) leaves no lock state behind: Settings.Must
// reads under the lock on every path that reaches the read, and Warned,
// whose failure path returns, reads without it.
func TestNoReturn(t *testing.T) {
	checkPairs(t, plan(t, "noreturn", "Settings"))
	checkPairs(t, plan(t, "noreturn", "Warned"), "Must~Set:pc")
}

// TestBufReader is DepCon+'s running example: Close is not synchronised,
// so Close–Read are dependent; Read–Mark both hold the lock (not
// parallel); Available–Available only read (no conflict). Unlike the
// paper (Java), Close–Close is dependent: two unsynchronised writes of
// recv.buf are a data race in Go.
func TestBufReader(t *testing.T) {
	tp := plan(t, "bufreader", "Reader")
	if tp.PairsTotal != 15 || tp.PairsPC != 3 || tp.PairsD != 0 {
		t.Errorf("|M|=%d |M_pc|=%d |M_d|=%d, want 15 3 0", tp.PairsTotal, tp.PairsPC, tp.PairsD)
	}
	checkPairs(t, tp, "Available~Close:pc", "Close~Close:pc", "Close~Read:pc")
	if !tp.Concurrent {
		t.Error("Reader holds a mutex: want Concurrent")
	}
	ev := tp.Pair("Read", "Close").Evidence[0]
	if ev.Kind != deps.DepPC || !strings.Contains(ev.Text, "Close writes r.buf") || !strings.Contains(ev.Text, "Read reads r.buf") {
		t.Errorf("evidence: %+v", ev)
	}
}

// TestHashtable is DepCon+'s Hashtable example: Equal locks both tables,
// so Equal–Equal is double-lock dependent with two objects; Len–Equal
// is not dependent.
func TestHashtable(t *testing.T) {
	tp := plan(t, "hashtable", "Table")
	if tp.PairsTotal != 10 || tp.PairsPC != 0 || tp.PairsD != 1 {
		t.Errorf("|M|=%d |M_pc|=%d |M_d|=%d, want 10 0 1", tp.PairsTotal, tp.PairsPC, tp.PairsD)
	}
	checkPairs(t, tp, "Equal~Equal:d")
	if p := tp.Pair("Equal", "Equal"); p == nil || p.Objects() != 2 {
		t.Errorf("Equal~Equal needs two objects: %+v", p)
	}
}

// TestGoCases covers a promoted mutex, a value receiver and a generic type.
func TestGoCases(t *testing.T) {
	results := runDeps(t, "gocases")
	p := results[0].Result.(*deps.Plan)
	checkPairs(t, p.Type("Counter"), "Inc~Peek:pc")
	checkPairs(t, p.Type("Point"), "Move~Sum:pc")
	checkPairs(t, p.Type("Cache"), "Get~Put:pc")
}

// TestEmbeddedPointer checks methods promoted through an embedded pointer
// (go-cache's layout): the locks of the promoted bodies guard the
// embedded struct's fields, recv.cache.mu guarding recv.cache.items.
func TestEmbeddedPointer(t *testing.T) {
	results := runDeps(t, "embedptr")
	p := results[0].Result.(*deps.Plan)
	c := p.Type("Cache")
	checkPairs(t, c)
	for _, m := range c.Methods {
		want := map[string]string{"Get": "[recv.cache.mu(R)]", "Set": "[recv.cache.mu(W)]"}[m.Name]
		if got := fmt.Sprint(m.Locks); got != want {
			t.Errorf("LS(Cache.%s) = %s, want %s", m.Name, got, want)
		}
	}
	checkPairs(t, p.Type("Leaky"), "Get~Set:pc")
}

// TestGenericEmbedded checks methods promoted through embedded generic
// types: those of a generic type (Cache embeds *common[K, V]) are in its
// method set as those of a non-generic type are, and a type embedding an
// instantiation, by value (Store) or by pointer (PtrStore), has the
// promoted methods' locks and accesses on the embedding path.
func TestGenericEmbedded(t *testing.T) {
	results := runDeps(t, "genericembed")
	p := results[0].Result.(*deps.Plan)
	for _, c := range []struct {
		typ, locks string
		pairs      []string
	}{
		// Hit writes recv.hits without the lock that Hits reads it
		// under.
		{"Cache", "Get[c.common.mu(W)] Hit[] Hits[c.common.mu(W)] Set[c.common.mu(W)]",
			[]string{"Hit~Hit:pc", "Hit~Hits:pc"}},
		{"Guarded", "Get[g.common.mu(W)] Hit[g.common.mu(W)] Hits[g.common.mu(W)] Set[g.common.mu(W)]", nil},
		{"Store", "Get[s.Cache.common.mu(W)] Hit[] Hits[s.Cache.common.mu(W)] Name[] Set[s.Cache.common.mu(W)]",
			[]string{"Hit~Hit:pc", "Hit~Hits:pc"}},
		{"PtrStore", "Get[recv.Cache.common.mu(W)] Hit[] Hits[recv.Cache.common.mu(W)] Set[recv.Cache.common.mu(W)]",
			[]string{"Hit~Hit:pc", "Hit~Hits:pc"}},
		// A value-receiver method promoted through a pointer reads
		// the embedded value, which Push writes.
		{"Ints", "Len[] Push[]", []string{"Len~Push:pc", "Push~Push:pc"}},
		{"Stack", "Len[] Push[]", []string{"Len~Push:pc", "Push~Push:pc"}},
	} {
		tp := p.Type(c.typ)
		if tp == nil {
			t.Errorf("no plan for %s", c.typ)
			continue
		}
		var got []string
		for _, m := range tp.Methods {
			got = append(got, m.Name+fmt.Sprint(m.Locks))
		}
		if strings.Join(got, " ") != c.locks {
			t.Errorf("%s methods:\n got  %s\n want %s", c.typ, strings.Join(got, " "), c.locks)
		}
		checkPairs(t, tp, c.pairs...)
	}
	ev := p.Type("Store").Pair("Hit", "Hits").Evidence[0]
	if !strings.Contains(ev.Text, "Hit writes s.Cache.hits") || !strings.Contains(ev.Text, "Hits reads s.Cache.hits") {
		t.Errorf("Store Hit~Hits evidence: %s", ev.Text)
	}
}

// TestGenericForeign checks methods promoted from a generic type of
// another package, whose summaries are facts on its generic methods:
// through a generic type embedding a pointer to an instance (Index) and
// a non-generic one embedding an instance (Names).
func TestGenericForeign(t *testing.T) {
	results := runDeps(t, "genericforeign")
	p := results[0].Result.(*deps.Plan)
	for _, typ := range []string{"Index", "Names"} {
		tp := p.Type(typ)
		if tp == nil {
			t.Errorf("no plan for %s", typ)
			continue
		}
		var got []string
		for _, m := range tp.Methods {
			got = append(got, m.Name+fmt.Sprint(m.Locks))
		}
		if want := "Len[] Load[recv.Map.mu(R)] Store[recv.Map.mu(W)]"; strings.Join(got, " ") != want {
			t.Errorf("%s methods:\n got  %s\n want %s", typ, strings.Join(got, " "), want)
		}
		checkPairs(t, tp, "Len~Store:pc")
	}
}

// TestWriteWrite checks that two writes conflict (a data race in Go, a
// fatal error for a map), unless a common lock orders them, both are
// single atomic operations, or both are only conservative writes by
// unknown code.
func TestWriteWrite(t *testing.T) {
	results := runDeps(t, "writewrite")
	p := results[0].Result.(*deps.Plan)
	checkPairs(t, p.Type("Racy"), "Reset~Reset:pc", "Set~Set:pc")
	checkPairs(t, p.Type("Locked"))
	checkPairs(t, p.Type("Atomic"))
	checkPairs(t, p.Type("Callbacks"))
}

// TestPerPair checks that parallelism is decided per pair of conflicting
// accesses (Put counts outside the lock but stores under it: independent
// of Get), and that a check and an act in two critical sections of one
// lock keep the method dependent with the writers of what it checks (of
// the checked location, or of another one it acts on: Queue), and so do
// the critical sections of a loop (Batch), and of helpers each taking the
// lock (Office), where each method's own check and act is evidence.
func TestPerPair(t *testing.T) {
	results := runDeps(t, "perpair")
	p := results[0].Result.(*deps.Plan)
	checkPairs(t, p.Type("Cache"), "Put~Put:pc", "Put~Puts:pc")
	pool := p.Type("Pool")
	checkPairs(t, pool, "Put~Take:pc", "Take~Take:pc", "Take~TakeLocked:pc")
	if ev := pool.Pair("Put", "Take").Evidence[0]; !strings.Contains(ev.Text, "in separate critical sections of p.mu") {
		t.Errorf("Put~Take evidence: %s", ev.Text)
	}
	checkPairs(t, p.Type("Queue"), "Close~Put:pc")
	gauge := p.Type("Gauge")
	checkPairs(t, gauge, "Record~Snapshot:pc")
	if ev := gauge.Pair("Record", "Snapshot").Evidence[0]; !strings.Contains(ev.Text, "in separate atomic operations") {
		t.Errorf("Record~Snapshot evidence: %s", ev.Text)
	}
	checkPairs(t, p.Type("Batch"), "Add~AddAll:pc", "AddAll~AddAll:pc", "AddAll~Len:pc")
	office := p.Type("Office")
	checkPairs(t, office, "Recall~Refill:pc", "Recall~Sell:pc", "Refill~Refill:pc", "Refill~Sell:pc",
		"Refill~SellLocked:pc", "Sell~Sell:pc", "Sell~SellLocked:pc")
	// Each of Refill and Sell checks through Open and acts in a second
	// critical section: an evidence for each, so that the runtime forces
	// each call between the other's check and act.
	var who []string
	for _, ev := range office.Pair("Refill", "Sell").Evidence {
		m, _, _ := strings.Cut(ev.Text, " ")
		who = append(who, m)
	}
	if !slices.Equal(who, []string{"Refill", "Sell"}) {
		t.Errorf("Refill~Sell evidence from %v, want [Refill Sell]", who)
	}
	// Resize's three critical sections give two gaps, in program order:
	// Push between the copy and the take-out, and between the take-out
	// and the install (the one that fails).
	ring := p.Type("Ring")
	checkPairs(t, ring, "Push~Resize:pc", "Resize~Resize:pc")
	var lines []int // the lines of each gap's two accesses
	for _, ev := range ring.Pair("Push", "Resize").Evidence {
		lines = append(lines, lineOf(ev.Pos1), lineOf(ev.Pos2))
	}
	if len(lines) != 4 || lines[1] != lines[2] || !slices.IsSorted(lines) || lines[0] == lines[1] || lines[2] == lines[3] {
		t.Errorf("Push~Resize gaps at lines %v, want two consecutive ones in program order", lines)
	}
}

// lineOf returns the line of a file:line:col position.
func lineOf(pos string) int {
	parts := strings.Split(pos, ":")
	if len(parts) < 3 {
		return 0
	}
	l, _ := strconv.Atoi(parts[len(parts)-2])
	return l
}

// TestForeignGlobals checks that the package variables of other packages
// (their private state) do not make a pair dependent, while the type's
// own fields written through calls into other packages and the package
// variables of the type's own package do.
func TestForeignGlobals(t *testing.T) {
	results := runDeps(t, "foreign")
	p := results[0].Result.(*deps.Plan)
	checkPairs(t, p.Type("Private"))
	checkPairs(t, p.Type("Own"), "Get~Inc:pc", "Inc~Inc:pc")
	checkPairs(t, p.Type("Local"), "A~A:pc", "A~B:pc", "B~B:pc")
}

// TestSelection checks which types are selected for testing by default
// (Concurrent) and why, and which are not although they reach
// synchronisation (NotShared).
func TestSelection(t *testing.T) {
	notShared := map[string]string{
		"Txn":    "a handle: it only reaches the synchronisation of *DB, another type of the package",
		"Buffer": "doc: is not safe for concurrent use",
		"Queue":  "doc: single producer",
		"Tx":     "a handle: it only reaches the synchronisation of *Store, another type of the package",
		"Cursor": "a handle: it only reaches the synchronisation of *Tx, another type of the package",
	}
	results := runDeps(t, "selection")
	p := results[0].Result.(*deps.Plan)
	for name, want := range map[string]string{
		"Direct":   "d.mu is a sync.Mutex",
		"Outer":    "o.inner.mu is a sync.RWMutex",
		"Sharded":  "s.shards[*].RWMutex is a sync.RWMutex",
		"ByKey":    "b.m[*].RWMutex is a sync.RWMutex",
		"Wrapped":  "w.shards.cs[*].RWMutex is a sync.RWMutex",
		"Counter":  "atomic operations on c.n",
		"Registry": "doc: safe for concurrent use by multiple goroutines",
		"Config":   "doc: immutable",
		"Buffer":   "",
		"Simple":   "",
		"Noisy":    "",
		"Plain":    "",
		"DB":       "db.mu is a sync.Mutex",
		"Txn":      "",
		"Queue":    "",
		"SafeTxn":  "doc: safe for concurrent use by multiple goroutines",
		"Session":  "s.mu is a sync.Mutex",
		"Tx":       "",
		"Cursor":   "",
		"TxStats":  "atomic operations on s.reads",
		"Store":    "s.mu is a sync.Mutex",
		"Pool":     "p.shards[*].mu is a sync.Mutex",
		"Logger":   "its methods Close and Print hold the package's logLock",
		"Entry":    "",
	} {
		tp := p.Type(name)
		if tp == nil {
			t.Errorf("no plan for %s", name)
			continue
		}
		if tp.ConcurrentWhy != want || tp.Concurrent != (want != "") {
			t.Errorf("%s: Concurrent=%t ConcurrentWhy=%q, want %q", name, tp.Concurrent, tp.ConcurrentWhy, want)
		}
		if tp.NotShared != notShared[name] {
			t.Errorf("%s: NotShared=%q, want %q", name, tp.NotShared, notShared[name])
		}
	}
}

// TestUnexported checks the two views of a plan: the exported view has
// the exported methods of exported types and the pairs among them only;
// the full view adds the unexported methods and types, marked.
func TestUnexported(t *testing.T) {
	results := runDeps(t, "unexported")
	p := results[0].Result.(*deps.Plan)
	checkPairs(t, p.Type("Store"))
	if p.Type("worker") != nil {
		t.Error("the exported view plans the unexported type worker")
	}
	full := p.Full("Store")
	checkPairs(t, full, "Get~put:pc", "Put~put:pc", "put~put:pc")
	if full.PairsTotal != 6 || full.PairsPC != 3 || !full.Exported {
		t.Errorf("full Store: |M|=%d |M_pc|=%d exported=%t, want 6 3 true", full.PairsTotal, full.PairsPC, full.Exported)
	}
	for _, m := range full.Methods {
		if m.Exported != (m.Name != "put") {
			t.Errorf("Store.%s: Exported=%t", m.Name, m.Exported)
		}
	}
	if e := full.ExportedOnly(); !reflect.DeepEqual(e, p.Type("Store")) {
		t.Errorf("ExportedOnly of the full view:\n%+v\nwant the exported view\n%+v", e, p.Type("Store"))
	}
	w := p.Full("worker")
	if w == nil || w.Exported {
		t.Fatalf("full view of worker: %+v", w)
	}
	checkPairs(t, w, "get~inc:pc", "inc~inc:pc")
}

// TestRecursion checks that the summary of a recursive method is computed
// to a fixed point: Sum locks a node and, recursively, its children with
// the node's lock held, so Sum~Sum is double-lock dependent on two objects
// (two trees containing each other). Total releases the lock before it
// recurses: no double lock.
func TestRecursion(t *testing.T) {
	tp := plan(t, "tree", "Node")
	checkPairs(t, tp, "Sum~Sum:d")
	if p := tp.Pair("Sum", "Sum"); p == nil || p.Objects() != 2 {
		t.Errorf("Sum~Sum needs two objects: %+v", p)
	}
}

// TestSetUp checks which methods are set-up methods, and why, and which
// are documented never to run concurrently.
func TestSetUp(t *testing.T) {
	results := runDepsOnce(t, "setupmethods")
	p := results[0].Result.(*deps.Plan)
	want := map[string]string{
		"Cache.SetHash":    "it takes no lock and is the only writer of c.hash, which the other methods read without synchronisation",
		"Pool.WithSize":    "it returns its receiver (a fluent setter)",
		"Server.Configure": "doc: must be called before using",
		"Server.Register":  "doc: must be called before invoking",
		"Server.Setup":     "it calls Configure, whose documentation says to call it before use",
		"Ring.Init":        "it is named as an initialiser (Init) and takes no lock",
		"Group.WithErrors": "it is an option conversion into ErrGroup, made before use",
		"expiring.WithTTL": "it returns its receiver (a fluent setter)",
		"Layered.Size":     "it returns the configuration it is promoted from (a fluent setter)",
		"Mux.Match":        "it takes no lock and is the only writer of m.matchers, which the other methods read without synchronisation",
	}
	// Queue.Init writes items, which Push appends to under the lock;
	// Conn.Close writes, unlocked, what Read reads locked; Sink.Stop
	// ends the object's use: none is a set-up method.
	for _, typ := range []string{"Cache", "Pool", "Server", "Counter", "List", "Group", "Registry", "Queue", "Conn",
		"Sink", "Ring", "Handler", "expiring", "Headers", "Layered", "Mux"} {
		tp := p.Type(typ)
		if tp == nil {
			tp = p.Full(typ)
		}
		if tp == nil {
			t.Fatalf("no plan for %s", typ)
		}
		for _, m := range tp.Methods {
			if got := m.SetUp; got != want[typ+"."+m.Name] {
				t.Errorf("%s.%s: SetUp %q, want %q", typ, m.Name, got, want[typ+"."+m.Name])
			}
		}
	}
	// The one rule for a method whose documentation forbids concurrent
	// calls (contract.Sequential): its phrase is in the plan, and ordinary
	// documentation says nothing.
	tp := p.Type("Stream")
	if tp == nil {
		t.Fatal("no plan for Stream")
	}
	for _, m := range tp.Methods {
		want := ""
		if m.Name == "SetHeader" {
			want = "should not be called in parallel"
		}
		if m.Sequential != want {
			t.Errorf("Stream.%s: Sequential %q, want %q", m.Name, m.Sequential, want)
		}
	}
}

// TestInterfaceDoc checks that an undocumented method takes the contract
// of the interface method it implements, declared in its package: the
// timer's Stop, which "must call it just once", is sequential; the
// connection's Close, whose interface says nothing of the kind, is not.
func TestInterfaceDoc(t *testing.T) {
	for _, tc := range []struct{ typ, method, want string }{
		{"cachedTimer", "Stop", "must call it just once"},
		{"cachedTimer", "Now", ""},
		{"conn", "Close", ""},
	} {
		tp := runDepsOnce(t, "ifacedoc")[0].Result.(*deps.Plan).Full(tc.typ)
		if tp == nil {
			t.Fatalf("no plan for %s", tc.typ)
		}
		found := false
		for _, m := range tp.Methods {
			if m.Name == tc.method {
				found = true
				if m.Sequential != tc.want {
					t.Errorf("%s.%s: Sequential %q, want %q", tc.typ, m.Name, m.Sequential, tc.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no method %s in the plan", tc.typ, tc.method)
		}
	}
}

// TestLockOff checks the lock-off switches: a method writing the flag
// other methods test to skip their lock (Store.NoLock), or the flag a
// mutex wrapper held in a field tests (Logger.SetNoLock, through the
// wrapper's Disable), one whose documentation says it disables locking
// (Table.Unsafe), and not a Close setting the flag a method tests to
// return early (Shut.Close).
func TestLockOff(t *testing.T) {
	p := runDepsOnce(t, "setupmethods")[0].Result.(*deps.Plan)
	want := map[string]string{
		"Store.NoLock":     "it writes s.nolock, which Get tests to skip its lock",
		"Table.Unsafe":     "doc: disables locking",
		"Logger.SetNoLock": "it writes l.mu.disabled, which MutexWrap.Lock tests to skip its lock",
	}
	for _, typ := range []string{"Store", "Shut", "Table", "Conn", "Cache", "Logger", "Locked"} {
		tp := p.Type(typ)
		if tp == nil {
			t.Fatalf("no plan for %s", typ)
		}
		for _, m := range tp.Methods {
			if m.LockOff != want[typ+"."+m.Name] {
				t.Errorf("%s.%s: LockOff %q, want %q", typ, m.Name, m.LockOff, want[typ+"."+m.Name])
			}
			if m.LockOff != "" && m.SetUp != "" {
				t.Errorf("%s.%s: a lock-off switch is a set-up method (%s)", typ, m.Name, m.SetUp)
			}
		}
	}
	// An option field documented to disable locking is in every plan of
	// the package; another bool of the same options is not.
	tp := p.Type("Tree")
	if tp == nil {
		t.Fatal("no plan for Tree")
	}
	if got, want := tp.LockOffFields, map[string]string{"TreeOptions.NoLocks": "disable locking"}; !maps.Equal(got, want) {
		t.Errorf("Tree's LockOffFields %v, want %v", got, want)
	}
}

// TestSafePackage checks that documentation saying the types are safe
// for concurrent use, the type's own or its package's, wins over the
// handle shape, and that a handle in a package that says nothing is
// still one.
func TestSafePackage(t *testing.T) {
	p := runDeps(t, "safepkg")[0].Result.(*deps.Plan)
	for _, typ := range []string{"Handle", "Cursor"} {
		if tp := p.Type(typ); tp == nil || tp.NotShared != "" {
			t.Errorf("safepkg.%s: %+v, want a plan with no NotShared", typ, tp)
		}
	}
	if tp := p.Type("Handle"); tp == nil || tp.ConcurrentWhy != "doc: thread-safe" {
		t.Errorf("safepkg.Handle: ConcurrentWhy %q, want the type's doc", tp.ConcurrentWhy)
	}
	h := runDeps(t, "handlepkg")[0].Result.(*deps.Plan).Type("Tx")
	if h == nil || !strings.HasPrefix(h.NotShared, "a handle: ") {
		t.Errorf("handlepkg.Tx: %+v, want a handle", h)
	}
}

// TestInternalStore checks that an exported type whose synchronisation
// lives in a type of its module's internal package is concurrent, with
// the pairs its methods' calls into that package make dependent.
func TestInternalStore(t *testing.T) {
	tp := plan(t, "istore", "Cache")
	if !tp.Concurrent || !strings.Contains(tp.ConcurrentWhy, "sync.Mutex") {
		t.Errorf("istore.Cache: Concurrent %v (%q), want it through its internal store", tp.Concurrent, tp.ConcurrentWhy)
	}
	checkPairs(t, tp, "Len~Put:pc")
}

// TestLocations checks the locations each method reads and writes,
// normalized, which the linearizability oracle's observers are chosen by.
func TestLocations(t *testing.T) {
	p := runDepsOnce(t, "setupmethods")[0].Result.(*deps.Plan)
	want := map[string][2][]string{
		"Get":     {{"T.hash", "T.m", "T.m->[*]"}, nil},
		"Put":     {{"T.m"}, {"T.m->[*]"}},
		"SetHash": {nil, {"T.hash"}},
	}
	for _, m := range p.Type("Cache").Methods {
		w := want[m.Name]
		if !slices.Equal(m.ReadLocs, w[0]) || !slices.Equal(m.WriteLocs, w[1]) {
			t.Errorf("Cache.%s: reads %q, writes %q; want %q, %q", m.Name, m.ReadLocs, m.WriteLocs, w[0], w[1])
		}
	}
	for _, tc := range []struct {
		read, write string
		want        bool
	}{
		{"T.m", "T.m->[*]", true}, // len(c.m) after c.m[k] = v
		{"T.m->[*]", "T.m", true}, // c.m[k] after c.m = map[string]int{}
		{"T.m->[*]", "T.m->[*]", true},
		{"T.hash", "T.m->[*]", false},
		{"T.mu", "T.m", false},
	} {
		if got := deps.Overlaps([]string{tc.read}, []string{tc.write}); got != tc.want {
			t.Errorf("Overlaps(%s, %s) = %v, want %v", tc.read, tc.write, got, tc.want)
		}
	}
}

// TestInterfaceField checks that calls into an interface of the package
// held in a field count as accesses of the receiver's state: Put's call
// without the lock conflicts with Get's under it, while the same calls
// all under the lock are independent.
func TestInterfaceField(t *testing.T) {
	p := runDeps(t, "lockerstore")[0].Result.(*deps.Plan)
	checkPairs(t, p.Type("Guarded"), "Get~Put:pc", "Put~Put:pc")
	checkPairs(t, p.Type("Locked"))
}

// TestDirectives checks the contracts written down in the code:
// //depcon:setup makes a set-up method, //depcon:single-goroutine a type
// not tested by default, //depcon:ignore takes a pair out of the plan.
func TestDirectives(t *testing.T) {
	results := runDeps(t, "directives")
	p := results[0].Result.(*deps.Plan)
	pool := p.Type("Pool")
	for _, m := range pool.Methods {
		want := ""
		if m.Name == "Init" {
			want = "annotated //depcon:setup (called once by the server before it serves)"
		}
		if m.SetUp != want {
			t.Errorf("Pool.%s: SetUp %q, want %q", m.Name, m.SetUp, want)
		}
	}
	if pool.Pair("Get", "Reset") != nil || len(pool.Ignored) != 1 ||
		pool.Ignored[0] != "Get ∥ Reset: Reset runs only once the pool is drained" {
		t.Errorf("Pool: pairs %v, ignored %q; want Get ∥ Reset ignored", pairs(pool), pool.Ignored)
	}
	if pool.Pair("Reset", "Reset") == nil {
		t.Errorf("Pool: pairs %v; Reset ∥ Reset is not ignored", pairs(pool))
	}
	if cur := p.Type("Cursor"); cur.Concurrent || cur.NotShared != "annotated //depcon:single-goroutine" {
		t.Errorf("Cursor: concurrent %v, not shared %q", cur.Concurrent, cur.NotShared)
	}
}

// TestQuestions checks that a pair whose conflicts no method orders at
// all is a contract question in a type whose documentation does not say
// it is safe for concurrent use, and a plain dependent pair in one whose
// documentation does.
func TestQuestions(t *testing.T) {
	results := runDeps(t, "questions")
	p := results[0].Result.(*deps.Plan)
	b := p.Type("Breaker")
	checkPairs(t, b, "Fail~Subscribe:pc", "Subscribe~Subscribe:pc")
	if q := b.Pair("Fail", "Subscribe").Question; q != "may Fail be called while Subscribe runs?" {
		t.Errorf("Breaker Fail~Subscribe: question %q", q)
	}
	for _, pr := range p.Type("SafeBreaker").Pairs {
		if pr.Question != "" {
			t.Errorf("SafeBreaker %s~%s: question %q, want none", pr.M1, pr.M2, pr.Question)
		}
	}
	// Another package's lock (log's) leaves a setter unsynchronised.
	lg := p.Type("Logging")
	if q := lg.Pair("SetLimit", "SetLimit").Question; q == "" {
		t.Errorf("Logging SetLimit~SetLimit: no question, want one: its only lock is log's")
	}
	if q := lg.Pair("Get", "SetLimit").Question; q != "" {
		t.Errorf("Logging Get~SetLimit: question %q, want none: Get reads the limit under its lock", q)
	}
	if q := p.Type("Counting").Pair("Inc", "Inc").Question; q != "" {
		t.Errorf("Counting Inc~Inc: question %q, want none: Inc locks the object for its count", q)
	}
}

// TestTruncated checks that a method whose summary was cut at its size
// limit keeps every pair it is in, with evidence that says so, where the
// accesses left show no conflict (Big ∥ Tail).
func TestTruncated(t *testing.T) {
	results := runDeps(t, "truncated")
	p := results[0].Result.(*deps.Plan)
	tp := p.Type("T")
	checkPairs(t, tp, "Big~Big:pc", "Big~Last:pc", "Big~Set:pc", "Big~Tail:pc")
	if ev := tp.Pair("Big", "Tail").Evidence[0].Text; !strings.Contains(ev, "the summary of Big was cut at its size limit") {
		t.Errorf("Big~Tail evidence: %s", ev)
	}
	checkTruncated(t, tp, "Big")

	// V.Big calls T.Big: its own summary has room for what T.Big's
	// shows, but what T.Big's lost is lost to it too.
	v := p.Type("V")
	checkTruncated(t, v, "Big")
	checkPairs(t, v, "Big~Big:pc", "Big~Tail:pc")
	if pr := v.Pair("Big", "Tail"); pr == nil || len(pr.Evidence) != 1 ||
		pr.Evidence[0].Text != "the summary of Big was cut at its size limit: what it lost may conflict with Tail" {
		t.Errorf("V Big~Tail: %+v", pr)
	}

	// A pair dependent by its locks only is parallel and conflict
	// dependent too when a summary is cut: depcon test then runs it in
	// exception mode as well.
	w := p.Type("W")
	checkTruncated(t, w, "AB")
	checkPairs(t, w, "AB~AB:pc", "AB~BA:pc+d")
	if pr := w.Pair("AB", "BA"); pr == nil || len(pr.Evidence) != 2 || pr.Evidence[0].Kind != deps.DepPC ||
		!strings.Contains(pr.Evidence[0].Text, "the summary of AB was cut") || pr.Evidence[1].Kind != deps.DepD {
		t.Errorf("W AB~BA: %+v", pr)
	}
	if w.PairsPC != 2 || w.PairsD != 1 {
		t.Errorf("W: pc=%d d=%d, want 2 1", w.PairsPC, w.PairsD)
	}

	// No contract question, and no set-up method, on the basis of a cut
	// summary: it may have lost the locks, or writes. (N ∥ SetN, two
	// whole methods that take no lock, is a question.)
	u := p.Type("U")
	checkTruncated(t, u, "Big", "Reset")
	checkPairs(t, u, "Big~Big:pc", "Big~Last:pc", "Big~N:pc", "Big~Reset:pc", "Big~SetN:pc", "Last~Reset:pc",
		"N~Reset:pc", "N~SetN:pc", "Reset~Reset:pc", "Reset~SetN:pc", "SetN~SetN:pc")
	for _, pr := range u.Pairs {
		whole := !slices.Contains([]string{pr.M1, pr.M2}, "Big") && !slices.Contains([]string{pr.M1, pr.M2}, "Reset")
		if (pr.Question != "") != whole {
			t.Errorf("U %s~%s: question %q", pr.M1, pr.M2, pr.Question)
		}
	}
	for _, m := range u.Methods {
		if m.SetUp != "" || m.Unsynchronised == m.Truncated {
			t.Errorf("U.%s: set-up %q, unsynchronised %v", m.Name, m.SetUp, m.Unsynchronised)
		}
	}

	checkTruncated(t, p.Type("U"), "Big", "Reset")
}

// TestTruncatedCallee checks that a method calling a function of another
// package whose summary is cut is cut too when what the callee lost may
// be the method's shared memory (Shared, on the T its receiver refers
// to), and not when the callee only gets the method's own memory (Local,
// on a T of its own).
func TestTruncatedCallee(t *testing.T) {
	x := plan(t, "truncatedcall", "X")
	checkTruncated(t, x, "Shared")
	checkPairs(t, x, "Count~Shared:pc", "Local~Shared:pc", "Shared~Shared:pc")
}

// checkTruncated checks the methods of tp whose summaries are cut.
func checkTruncated(t *testing.T, tp *deps.TypePlan, want ...string) {
	t.Helper()
	if got := tp.TruncatedMethods(); !slices.Equal(got, want) {
		t.Errorf("%s: truncated %v, want %v", tp.Name, got, want)
	}
	for _, m := range tp.Methods {
		if m.Truncated != slices.Contains(want, m.Name) {
			t.Errorf("%s.%s: truncated %v", tp.Name, m.Name, m.Truncated)
		}
	}
}

// TestReceiverNames checks how the plan names receivers: text about a
// type (its locks, why it is concurrent) by the name its methods give
// their receiver most often, ties going to the first in source order,
// "recv" when none names it (unnamed, _, or only promoted methods); the
// text of a pair whose methods name their receivers differently by the
// type's name too.
func TestReceiverNames(t *testing.T) {
	p := runDeps(t, "recvnames")[0].Result.(*deps.Plan)
	for _, c := range []struct{ typ, why, locks string }{
		{"Store", "s.mu is a sync.Mutex", "Del[s.mu(W)] Peek[] Put[s.mu(W)]"},
		{"Tie", "b.mu is a sync.Mutex", "Bump[b.mu(W)] Get[b.mu(W)]"},
		{"Anon", "recv.mu is a sync.Mutex", "Add[recv.inner.mu(W)] Kind[] Size[]"},
	} {
		tp := p.Type(c.typ)
		if tp == nil {
			t.Errorf("no plan for %s", c.typ)
			continue
		}
		if tp.ConcurrentWhy != c.why {
			t.Errorf("%s: ConcurrentWhy %q, want %q", c.typ, tp.ConcurrentWhy, c.why)
		}
		var got []string
		for _, m := range tp.Methods {
			got = append(got, m.Name+fmt.Sprint(m.Locks))
		}
		if strings.Join(got, " ") != c.locks {
			t.Errorf("%s methods:\n got  %s\n want %s", c.typ, strings.Join(got, " "), c.locks)
		}
	}
	// Peek calls its receiver st, Put s: the pair's text says s.
	store := p.Type("Store")
	checkPairs(t, store, "Del~Peek:pc", "Peek~Put:pc")
	if pr := store.Pair("Peek", "Put"); pr == nil || len(pr.Evidence) == 0 ||
		!strings.Contains(pr.Evidence[0].Text, "Peek reads s.m[*]") || !strings.Contains(pr.Evidence[0].Text, "Put writes s.m[*]") ||
		pr.Evidence[0].Loc1 != "s.m[*]" || pr.Evidence[0].Loc2 != "s.m[*]" {
		t.Errorf("Peek~Put: %+v", pr)
	}
}

// TestDottedPath checks the package variables of a package whose import
// path's last element has a dot (dotted.v2, as gopkg.in/yaml.v3): its own
// count, written by Store's methods with no lock, makes them dependent, as
// in a package with a dotless path; Tally's total, written under the
// package's mutex (shown as people know the package, dotted.v2.mu), does
// not; nor does the private state of dottedlib.v3, another such package,
// that Private's methods write through calls.
func TestDottedPath(t *testing.T) {
	p := runDeps(t, "dotted.v2")[0].Result.(*deps.Plan)
	store := p.Type("Store")
	checkPairs(t, store, "Put~Put:pc", "Put~Reset:pc", "Reset~Reset:pc")
	if m := store.Method("Put"); m == nil || !slices.Equal(m.WriteLocs, []string{`@"dotted.v2".count`}) {
		t.Errorf("Store.Put: %+v, want it to write @\"dotted.v2\".count", m)
	}
	tally := p.Type("Tally")
	checkPairs(t, tally)
	if m := tally.Method("Add"); m == nil || !slices.Equal(m.Locks, []string{"dotted.v2.mu(W)"}) {
		t.Errorf("Tally.Add: %+v, want it to hold dotted.v2.mu", m)
	}
	checkPairs(t, p.Type("Private"))
}

// TestOwnGoroutines checks that a type with no synchronisation of its
// own is concurrent when a method starts a goroutine sharing a field with
// its callers, and that its pairs are those of that method with the
// others (Polls ∥ Start), not its callers' among themselves (Name ∥
// Rename) nor the method with itself; a goroutine on a copy, or none,
// makes no type concurrent.
func TestOwnGoroutines(t *testing.T) {
	p := runDepsOnce(t, "ownloop")[0].Result.(*deps.Plan)
	poller := p.Type("Poller")
	if poller == nil || !poller.Concurrent || !poller.OwnGoroutines ||
		poller.ConcurrentWhy != "Start starts a goroutine that writes p.polls, which Polls reads" {
		t.Fatalf("Poller: %+v", poller)
	}
	var pairs []string
	for _, pair := range poller.Pairs {
		pairs = append(pairs, pair.M1+" ∥ "+pair.M2)
	}
	if !slices.Equal(pairs, []string{"Polls ∥ Start"}) {
		t.Errorf("Poller's pairs %q, want Polls ∥ Start only", pairs)
	}
	for _, typ := range []string{"Copier", "Plain", "Set"} {
		if tp := p.Type(typ); tp != nil && tp.Concurrent {
			t.Errorf("%s is concurrent: %s", typ, tp.ConcurrentWhy)
		}
	}
}

// TestWrappedGoroutines checks that the goroutine a helper of the
// package starts for a method (the Wrap of a WaitGroup wrapper, an
// errgroup-style Go two calls deep, a spawn function, the Wrap of an
// embedded helper given a method value) is the method's, as a go
// statement of its own is: Wheel's plan is GoWheel's, Add ∥ Start among
// its pairs, and Poller, with no synchronisation of its own, is
// concurrent through the goroutine Start spawns. The clock under a lock,
// or accessed atomically, on both sides leaves Add ∥ Start independent,
// and unguarded reports neither.
func TestWrappedGoroutines(t *testing.T) {
	p := runDepsOnce(t, "wrapgo")[0].Result.(*deps.Plan)
	typ := func(name string) *deps.TypePlan {
		t.Helper()
		tp := p.Type(name)
		if tp == nil {
			t.Fatalf("no plan for %s", name)
		}
		return tp
	}
	wheel := []string{"Add~Start:pc", "Start~Start:pc", "Start~Stop:pc", "Stop~Stop:pc"}
	checkPairs(t, typ("Wheel"), wheel...)
	checkPairs(t, typ("GoWheel"), wheel...)
	checkPairs(t, typ("LockedWheel"), "Start~Stop:pc", "Stop~Stop:pc")
	checkPairs(t, typ("AtomicWheel"), "Start~Stop:pc", "Stop~Stop:pc")
	checkPairs(t, typ("Crawler"), "Crawl~Crawl:pc", "Crawl~Pages:pc")
	checkPairs(t, typ("Ticker"), "Start~Start:pc", "Start~Ticks:pc")
	poller := typ("Poller")
	if !poller.OwnGoroutines || poller.ConcurrentWhy != "Start starts a goroutine that writes p.polls, which Polls reads" {
		t.Errorf("Poller: own goroutines %v, concurrent: %q", poller.OwnGoroutines, poller.ConcurrentWhy)
	}
	checkPairs(t, poller, "Polls~Start:pc")
	analysistest.Run(t, analysistest.TestData(), unguarded.Analyzer, "wrapgo")
}
