package driver

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/driver/internal/instrument"
	"github.com/depcon/depcon/runtime/driver/internal/repro"
	"github.com/depcon/depcon/runtime/driver/internal/sched"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/stacks"
	"github.com/depcon/depcon/runtime/testgen"
	"golang.org/x/tools/go/packages"
)

const panicStack = `goroutine 1267 [running]:
runtime/debug.Stack()
	/usr/local/go/src/runtime/debug/stack.go:26 +0x5e
example.com/q.depconHinvoke.func1()
	/tmp/w/zz_depcon_harness_test.go:180 +0x8a
panic({0x758e80?, 0x7ae4f0?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
example.com/q.(*Queue).Put(0xc00023dc60, 0x10)
	/src/q/queue.go:38 +0x14f
reflect.Value.call({0x6c2e40?, 0xc0001a4c60?, 0x13?}, {0x71b0b1, 0x4}, {0xc0001b2f30, 0x1, 0x1})
	/usr/local/go/src/reflect/value.go:581 +0xcc6
example.com/q.depconHinvoke({0x6c2e40?, 0xc0001a4c60?, 0x13?}, {0xc0001b2f30, 0x1, 0x1})
	/tmp/w/zz_depcon_harness_test.go:190 +0x1a5
example.com/q.(*depconHexecution).concurrent.func1()
	/tmp/w/zz_depcon_exec_test.go:70 +0x8f
created by example.com/q.(*depconHexecution).concurrent in goroutine 7
	/tmp/w/zz_depcon_exec_test.go:66 +0x1d4
`

// TestDumpStack checks that a goroutine's stack is cut to the user's
// frames: from the call of panic of a recovered panic, to the harness's
// frames, and that the harness's frame that created it is dropped.
func TestDumpStack(t *testing.T) {
	want := `goroutine 2 (a.Put):
goroutine 1267 [running]:
panic(...)
	/usr/local/go/src/runtime/panic.go:860
example.com/q.(*Queue).Put(...)
	/src/q/queue.go:38`
	s := dumpStack(panicStack, "goroutine 2 (a.Put)", "depconH")
	if got := s.String(); got != want {
		t.Errorf("dumpStack:\n%s\nwant:\n%s", got, want)
	}
	if len(s.Created) != 0 || s.Parent != 0 || s.Goroutine != 1267 || s.State != "running" {
		t.Errorf("dumpStack: %+v", s)
	}
	dump := "goroutine 9 [sync.Mutex.Lock]:\nsync.(*Mutex).Lock(0x1)\n\t/go/sync/mutex.go:46 +0x15\n" +
		"example.com/q.(*Map).Equal(0x1, 0x2)\n\t/src/q/map.go:48 +0xc5\n" +
		"reflect.Value.call({0x1})\n\t/go/reflect/value.go:581 +0xcc6\n"
	got := dumpStack(dump, "", "depconH").Frames
	if len(got) != 2 || got[1].Func != "example.com/q.(*Map).Equal" || got[1].Line != 48 {
		t.Errorf("dumpStack of a dump: %+v", got)
	}
}

const raceReport = `WARNING: DATA RACE
Read at 0x00c0000142b8 by goroutine 9:
  runtime.mapaccess2_faststr()
      /usr/local/go/src/internal/runtime/maps/runtime_faststr.go:161 +0x0
  example.com/c.(*Cache).Get()
      /src/c/cache.go:32 +0x94
  runtime.call16()
      /usr/local/go/src/runtime/asm_amd64.s:775 +0x42
  reflect.Value.Call()
      /usr/local/go/src/reflect/value.go:365 +0xb5
  example.com/c.depconHinvoke()
      /tmp/w/zz_depcon_harness_test.go:190 +0x1a5

Previous write at 0x00c0000142b8 by goroutine 8:
  example.com/c.(*Cache).Get()
      /src/c/cache.go:38 +0x1d5
  reflect.Value.Call()
      /usr/local/go/src/reflect/value.go:365 +0xb5

Goroutine 9 (running) created at:
  example.com/c.(*depconHexecution).concurrent()
      /tmp/w/zz_depcon_exec_test.go:66 +0x1d4`

func TestRaceReport(t *testing.T) {
	accesses, got := raceStacks(stacks.ParseRace(raceReport), "depconH")
	if got, want := raceSummary(accesses),
		"data race: read in c.(*Cache).Get() (cache.go:32), previous write in c.(*Cache).Get() (cache.go:38)"; got != want {
		t.Errorf("raceSummary:\n%s\nwant\n%s", got, want)
	}
	if len(accesses) != 2 || len(accesses[0].Frames) != 2 || len(accesses[1].Frames) != 1 || len(accesses[0].Created) != 0 {
		t.Errorf("accesses cut to the user's frames: %+v", accesses)
	}
	for _, bad := range []string{"reflect", "depconH", "Goroutine 9", "runtime.call16"} {
		if strings.Contains(got, bad) {
			t.Errorf("trimmed race report keeps %q:\n%s", bad, got)
		}
	}
	for _, want := range []string{"WARNING: DATA RACE", "runtime.mapaccess2_faststr", "cache.go:32", "Previous write", "cache.go:38"} {
		if !strings.Contains(got, want) {
			t.Errorf("trimmed race report lacks %q:\n%s", want, got)
		}
	}
}

func TestFatalGoroutines(t *testing.T) {
	report := "fatal error: concurrent map writes\n\ngoroutine 8 [running]:\nexample.com/c.(*Cache).Get()\n\t/src/c/cache.go:38\n" +
		"example.com/c.depconHinvoke()\n\t/tmp/h.go:1\n\ngoroutine 1 [chan receive]:\ntesting.(*T).Run()\n\t/go/testing.go:1\n"
	ss, got := fatalStacks(report, "depconH")
	if !strings.HasPrefix(got, "fatal error: concurrent map writes") || !strings.Contains(got, "(*Cache).Get") ||
		strings.Contains(got, "testing.(*T).Run") {
		t.Errorf("fatalStacks:\n%s", got)
	}
	if len(ss) != 1 || len(ss[0].Frames) != 1 || ss[0].Frames[0].Pos() != "/src/c/cache.go:38" {
		t.Errorf("fatalStacks: %+v", ss)
	}
}

func TestReproduces(t *testing.T) {
	res := func(status string, g int) *child.Reply {
		return &child.Reply{Result: &harness.Message{Status: status, Goroutine: g}}
	}
	death := func(kind string) *child.Reply { return &child.Reply{Death: &child.Death{Kind: kind}} }
	panic1 := &candidate{kind: report.KindPanic, goroutine: 1}
	hang := &candidate{kind: report.KindDeadlock, goroutine: -1}
	fatal := &candidate{kind: report.KindFatal, goroutine: -1, death: child.DeathFatal}
	for _, tc := range []struct {
		name string
		cand *candidate
		rep  *child.Reply
		want bool
	}{
		{"panic, sequential ok", panic1, res(harness.StatusOK, -1), false},
		{"panic of the same call", panic1, res(harness.StatusPanic, 1), true},
		{"panic of the same call, reversed", panic1, res(harness.StatusPanic, 0), true},
		{"panic of the other call (it fails alone)", panic1, res(harness.StatusPanic, 0), true},
		{"panic, sequential blocks", panic1, res(harness.StatusBlocked, 0), false},
		{"panic, sequential crash", panic1, death(child.DeathPanic), true},
		{"hang, sequential ok", hang, res(harness.StatusOK, -1), false},
		{"hang, sequential blocks", hang, res(harness.StatusBlocked, 0), true},
		{"hang, sequential runs on", hang, res(harness.StatusRunning, 1), true},
		{"hang, sequential killed", hang, death(child.DeathKilled), true},
		{"fatal, sequential ok", fatal, res(harness.StatusOK, -1), false},
		{"fatal, sequential fatal", fatal, death(child.DeathFatal), true},
		{"fatal, sequential exit", fatal, death(child.DeathExit), false},
		{"inconclusive", panic1, res(harness.StatusObjectFailed, -1), true},
	} {
		if got := reproduces(tc.cand, tc.rep); got != tc.want {
			t.Errorf("%s: reproduces = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWithoutDropped(t *testing.T) {
	test := harness.Test{Prefix: []harness.Call{{Fn: "A"}, {Fn: "B"}, {Fn: "C"}}}
	got := withoutDropped(test, []harness.Drop{{Index: 1}})
	if len(got.Prefix) != 2 || got.Prefix[0].Fn != "A" || got.Prefix[1].Fn != "C" || len(test.Prefix) != 3 {
		t.Errorf("withoutDropped: %v (original %v)", got.Prefix, test.Prefix)
	}
	if stepIndex("prefix 12", "prefix") != 12 || stepIndex("suffix", "prefix") != -1 || stepIndex("object 1", "prefix") != -1 {
		t.Errorf("stepIndex wrong")
	}
}

// TestBeforeCall checks which probes say nothing about the method: those
// that hung or killed the child while building the object, not in the call.
func TestBeforeCall(t *testing.T) {
	msg := func(status, step string) *child.Reply {
		return &child.Reply{Result: &harness.Message{Status: status, Step: step}}
	}
	death := func(kind, step string) *child.Reply {
		return &child.Reply{Step: step, Death: &child.Death{Kind: kind}}
	}
	for _, c := range []struct {
		rep  *child.Reply
		want bool
	}{
		{msg(harness.StatusRunning, "object 0"), true},
		{msg(harness.StatusBlocked, "prefix 1"), true},
		{msg(harness.StatusRunning, "suffix 0"), false},
		{msg(harness.StatusBlocked, "suffix 0"), false},
		{msg(harness.StatusOK, ""), false},
		{msg(harness.StatusPanic, "object 0"), false},
		{death(child.DeathExit, "object 0"), true},
		{death(child.DeathExit, "suffix 0"), false},
		{death(child.DeathRace, "object 0"), false},
	} {
		if got := beforeCall(c.rep); got != c.want {
			t.Errorf("beforeCall(%s in %q) = %v, want %v", status(c.rep), step(c.rep), got, c.want)
		}
	}
}

func status(r *child.Reply) string {
	if r.Result == nil {
		return "death " + r.Death.Kind
	}
	return r.Result.Status
}

func step(r *child.Reply) string {
	if r.Result == nil {
		return r.Step
	}
	return r.Result.Step
}

// TestIsIterator checks which types are taken for iterators: not a
// type whose Next waits for a trigger another method gives (Throttle,
// Latch, Queue), unless it has an accessor (Sub) or its Next waits for
// nothing another method gives (Feed, whose channel only its own
// goroutine fills).
func TestIsIterator(t *testing.T) {
	const src = `package p
import "sync"
type It struct{}
func (*It) Next() bool { return false }
type Sc struct{}
func (Sc) HasNext() bool { return false }
type Cache struct{}
func (*Cache) Next(n int) bool { return false }
type Q struct{}
func (*Q) Next() int { return 0 }
type Event struct{}
type Stream struct{}
func (*Stream) Next() *Event { return nil }
type Rows struct{}
func (*Rows) Next() (Event, error) { return Event{}, nil }
type Cursor struct{}
func (*Cursor) Next() int { return 0 }
func (*Cursor) Value() string { return "" }
type IDs struct{}
func (*IDs) Next() (uint64, error) { return 0, nil }

type Throttle struct { cond *sync.Cond; ready bool }
func (t *Throttle) Next() bool { t.cond.L.Lock(); for !t.ready { t.cond.Wait() }; t.ready = false; t.cond.L.Unlock(); return true }
func (t *Throttle) Trigger() { t.cond.L.Lock(); t.ready = true; t.cond.L.Unlock(); t.cond.Broadcast() }
type Latch struct { done chan struct{} }
func (l *Latch) Next() bool { <-l.done; return true }
func (l *Latch) Open() { close(l.done) }
type Queue struct { ch chan *Event }
func (q *Queue) Next() *Event { select { case e := <-q.ch: return e } }
func (q *Queue) Put(e *Event) { q.ch <- e }
type Sub struct { ch chan Event; cur Event }
func (s *Sub) Next() bool { e, ok := <-s.ch; s.cur = e; return ok }
func (s *Sub) Value() Event { return s.cur }
func (s *Sub) Close() { close(s.ch) }
type Feed struct { ch chan Event }
func (f *Feed) Next() bool { _, ok := <-f.ch; return ok }
func (f *Feed) Start() { go func(ch chan Event) { ch <- Event{} }(f.ch) }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	waits := signalledWaits([]*ast.File{f}, info)
	for name, want := range map[string]bool{"It": true, "Sc": true, "Cache": false, "Q": false, "Nope": false,
		"Stream": true, "Rows": true, "Cursor": true, "IDs": false,
		"Throttle": false, "Latch": false, "Queue": false, "Sub": true, "Feed": true} {
		if got := isIterator(pkg, name, waits); got != want {
			t.Errorf("isIterator(%s) = %v, want %v", name, got, want)
		}
	}
}

// TestFailsAs checks that a reproducer confirms a violation only when it
// fails the way the violation did.
// TestReplaysDone: replays stop after three that all failed, else after
// ten; and the reproducer's wait is a second for fast calls.
func TestReplaysDone(t *testing.T) {
	for _, tc := range []struct {
		failed, runs int
		want         bool
	}{
		{0, 0, false}, {2, 2, false}, {3, 3, true}, {2, 3, false}, {0, 3, false}, {2, 9, false}, {5, 10, true},
	} {
		if got := replaysDone(tc.failed, tc.runs); got != tc.want {
			t.Errorf("replaysDone(%d, %d) = %v, want %v", tc.failed, tc.runs, got, tc.want)
		}
	}
	if got := reproWait(minWatchdog); got != time.Second {
		t.Errorf("reproWait(%v) = %v, want 1s", minWatchdog, got)
	}
	if got := reproWait(time.Second); got != 5*time.Second {
		t.Errorf("reproWait(1s) = %v, want 5s", got)
	}
}

// TestHeaviestFirst: the packages with the most dependent pairs are
// tested first, ties in their order.
func TestHeaviestFirst(t *testing.T) {
	pkg := func(pairs ...int) pkgSubjects {
		var ps pkgSubjects
		for _, n := range pairs {
			ps.subjects = append(ps.subjects, &testgen.Subject{Plan: &deps.TypePlan{Pairs: make([]deps.Pair, n)}})
		}
		return ps
	}
	got := heaviestFirst([]pkgSubjects{pkg(1), pkg(2, 3), pkg(), pkg(5), pkg(1)})
	if want := []int{1, 3, 0, 4, 2}; !slices.Equal(got, want) {
		t.Errorf("heaviestFirst = %v, want %v", got, want)
	}
}

// TestReproBatch: reproducers share a test binary unless their file or
// test names clash.
func TestReproBatch(t *testing.T) {
	files := []reproFile{
		{name: "a_test.go", test: "TestA", src: []byte("a")},
		{name: "b_test.go", test: "TestB", src: []byte("b")},
		{name: "b_test.go", test: "TestB2", src: []byte("b2")},
		{name: "c_test.go", test: "TestA", src: []byte("c")},
		{name: "d_test.go", test: "TestD", src: []byte("d")},
	}
	got := slices.Sorted(maps.Keys(reproBatch(files)))
	if want := []string{"d_test.go"}; !slices.Equal(got, want) {
		t.Errorf("reproBatch = %v, want %v", got, want)
	}
	got = slices.Sorted(maps.Keys(reproBatch(files[:2])))
	if want := []string{"a_test.go", "b_test.go"}; !slices.Equal(got, want) {
		t.Errorf("reproBatch = %v, want %v", got, want)
	}
}

func TestFailsAs(t *testing.T) {
	for _, tc := range []struct {
		kind string
		res  child.TestResult
		want bool
	}{
		{report.KindRace, child.TestResult{Race: true, ExitCode: 66}, true},
		{report.KindRace, child.TestResult{ExitCode: 1, Output: "--- FAIL: TestX\n    x_test.go:9: NewX failed"}, false},
		{report.KindPanic, child.TestResult{ExitCode: 1, Output: "    x_test.go:20: a.Get panicked: index out of range"}, true},
		{report.KindPanic, child.TestResult{ExitCode: 1, Output: "    x_test.go:12: no cell"}, false},
		{report.KindDeadlock, child.TestResult{ExitCode: 1, Output: "deadlock: a.Put and a.Close did not return within 5s"}, true},
		{report.KindDeadlock, child.TestResult{ExitCode: 2, TimedOut: true, Output: "panic: test timed out after 3m0s"}, false},
		{report.KindSelfDeadlock, child.TestResult{ExitCode: 1, Output: "self-deadlock: a.Inc did not return within 5s"}, true},
		{report.KindFatal, child.TestResult{ExitCode: 2, Output: "fatal error: concurrent map writes"}, true},
		{report.KindFatal, child.TestResult{ExitCode: 2, TimedOut: true, Output: "panic: test timed out after 3m0s"}, false},
		{report.KindPanic, child.TestResult{ExitCode: 2, Output: "panic: send on closed channel\n\ngoroutine 7"}, true},
		{report.KindPanic, child.TestResult{ExitCode: 66, Output: "WARNING: DATA RACE\nRead at ..."}, true},
		{report.KindFatal, child.TestResult{ExitCode: -1, OutOfMemory: true, Output: "fatal error: runtime: out of memory"}, false},
		// A failure in the set-up, before the calls reproduced, even with
		// a race there, confirms nothing.
		{report.KindRace, child.TestResult{ExitCode: 1, Race: true, Output: "WARNING: DATA RACE\n...\n    x_test.go:30: " +
			repro.SetupFailed}, false},
		{report.KindPanic, child.TestResult{ExitCode: 1, Output: "    x_test.go:12: recovered no such event\n    x_test.go:12: " +
			repro.SetupFailed}, false},
	} {
		res := tc.res
		if got := failsAs(tc.kind, &res); got != tc.want {
			t.Errorf("failsAs(%s, %q) = %v, want %v", tc.kind, res.Output, got, tc.want)
		}
	}
}

func TestStringLiterals(t *testing.T) {
	const src = `package p

import "errors"

var dims = map[string]int{"length": 1, "mass": 2}

var errBad = errors.New("p: bad thing")

func f(s string) bool {
	if s == "length" || s == "time" {
		return true
	}
	return s == "a\nb" || s == ""
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := stringLiterals(&packages.Package{Syntax: []*ast.File{f}})
	if want := []string{"length", "mass", "time"}; !slices.Equal(got, want) {
		t.Errorf("literals %q, want %q (no import path, message, repeat, newline or empty string)", got, want)
	}
}

func TestDumpStackHookFrames(t *testing.T) {
	stack := `goroutine 25 [sync.Mutex.Lock]:
sync.(*Mutex).Lock(0x0?)
	/usr/local/go/src/sync/mutex.go:46 +0x15
example.com/q.(*depconHdispatcher).wait(0xa8ff20, 0xd1, 0xc000368b70)
	/tmp/w/zz_depcon_sched_test.go:211 +0x45
example.com/q.depconHWait(0xd1, 0xc000368b70)
	/tmp/w/zz_depcon_hook.go:52 +0x66
example.com/q.(*Queue).Put(0xc00023dc60, 0x10)
	/src/q/queue.go:38 +0x14f
reflect.Value.call({0x810cc0?, 0xc0000064a0?, 0x4213?}, {0x816aa4, 0x4}, {0xc0003954d0, 0x1, 0x1?})
	/usr/local/go/src/reflect/value.go:586 +0x1232
example.com/q.depconHinvoke({0x810cc0?, 0xc0000064a0?, 0x453b37?}, {0xc0003954d0, 0x1, 0x1})
	/tmp/w/zz_depcon_harness_test.go:233 +0x228`
	want := `goroutine 25 [sync.Mutex.Lock]:
sync.(*Mutex).Lock(...)
	/usr/local/go/src/sync/mutex.go:46
example.com/q.(*Queue).Put(...)
	/src/q/queue.go:38`
	if got := dumpStack(stack, "", "depconH").String(); got != want {
		t.Errorf("dumpStack kept:\n%s\nwant:\n%s", got, want)
	}
}

func TestRecordCoverage(t *testing.T) {
	// A double-lock evidence gives one targeted order, lock∥lock.
	tgt := &testgen.Target{M1: "Get", M2: "Put", Pair: &deps.Pair{M1: "Get", M2: "Put", Evidence: []deps.Evidence{{Kind: deps.DepD}}}}
	r := &typeRun{policy: sched.New(sched.Config{Scheduler: SchedAll, Sites: &instrument.Result{}})}
	if n := len(r.policy.Orders(tgt)); n != 1 {
		t.Fatalf("%d targeted orders, want 1", n)
	}
	cov := func() report.OrderCoverage { return r.policy.Coverage()[0].Orders[0] }
	// A child that died in a prefix call tried nothing (and must not
	// be read as a result).
	r.recordCoverage(tgt, 0, &child.Reply{Step: "prefix 0", Death: &child.Death{Kind: child.DeathExit}})
	r.recordCoverage(tgt, 0, &child.Reply{Result: &harness.Message{Status: harness.StatusObjectFailed}})
	if c := cov(); c.Tests != 0 {
		t.Fatalf("coverage %+v after tests whose suffixes did not run, want none", c)
	}
	r.recordCoverage(tgt, 0, &child.Reply{Step: "suffix", Death: &child.Death{Kind: child.DeathRace}})
	r.recordCoverage(tgt, 0, &child.Reply{Result: &harness.Message{Status: harness.StatusOK,
		Sched: &harness.SchedResult{Iters: 10, Forced: 7, Why: map[string]int{harness.WhyNotReached: 3}}}})
	c := cov()
	if c.Tests != 2 || c.Failed != 1 || c.Iters != 10 || c.Forced != 7 || c.Why[harness.WhyNotReached] != 3 {
		t.Errorf("coverage %+v, want 2 tests, 1 failed, 7 of 10 forced, 3 not reached", c)
	}
	if known, reached := r.policy.OrdersReached(tgt); !known || !reached {
		t.Errorf("orders known %v, reached %v; want both", known, reached)
	}
}

// TestProgressLine checks the run's progress line: types done of all,
// violations so far, time elapsed and the most the budgets leave (the
// longest running type's deadline, then the types not started, a budget
// per round of Parallel types).
func TestProgressLine(t *testing.T) {
	var b strings.Builder
	p := newProgress(nil, 5, Config{Budget: 10 * time.Second, Parallel: 2})
	now := p.start.Add(3 * time.Second)
	a, c := &typeRun{}, &typeRun{}
	p.begin(a, now.Add(4*time.Second))
	p.begin(c, now.Add(7*time.Second))
	p.end(a, 2)
	// c runs (7 s left), 3 wait: two rounds of 10 s.
	if got, want := p.line(now), "1 of 5 types done, 2 violations, 3s elapsed, at most 27s left"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	p.end(c, 0)
	if got := p.line(now); !strings.HasPrefix(got, "2 of 5 types done, 2 violations") {
		t.Errorf("line %q", got)
	}
	w := newProgress(&b, 1, Config{Budget: time.Second, Parallel: 1})
	w.begin(a, time.Now())
	w.end(a, 1)
	w.close()
	if out := b.String(); !strings.Contains(out, "1 of 1 type done, 1 violation") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("progress output %q", out)
	}
}

// TestProgressConcurrent writes the progress line from several
// goroutines, as the types tested at once do, under the race detector.
func TestProgressConcurrent(t *testing.T) {
	var b strings.Builder
	p := newProgress(&b, 8, Config{Budget: time.Second, Parallel: 4})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			r := &typeRun{}
			p.begin(r, time.Now().Add(time.Second))
			p.end(r, 1)
		})
	}
	wg.Wait()
	p.close()
	if !strings.Contains(b.String(), "8 of 8 types done, 8 violations") {
		t.Errorf("progress output %q", b.String())
	}
}

// TestSlowNote checks the note of a type with few tests: a request whose
// calls did not return is named by its calls, not taken for slow
// objects; a slow one that returned blames the objects' arguments.
func TestSlowNote(t *testing.T) {
	test := harness.Test{Objects: []harness.Call{{Fn: "NewWithOpts"}}, Suffix: []harness.Call{{Fn: "ShutdownOnSignals"}}}
	got := slowNote(4, 5157*time.Millisecond, test, true)
	if want := "only 4 tests ran in the budget: one request took 5.157s waiting for ShutdownOnSignals, which did not return"; got != want {
		t.Errorf("stuck: %q, want %q", got, want)
	}
	if got := slowNote(1, 3*time.Second, test, false); !strings.Contains(got, "only 1 test ran") ||
		!strings.Contains(got, "(objects NewWithOpts()); constructor arguments that make objects slow") {
		t.Errorf("slow objects: %q", got)
	}
	for _, tc := range []struct {
		rep  *child.Reply
		want bool
	}{
		{nil, false},
		{&child.Reply{Result: &harness.Message{Status: harness.StatusRunning}}, true},
		{&child.Reply{Result: &harness.Message{Status: harness.StatusHang}}, true},
		{&child.Reply{Result: &harness.Message{Status: harness.StatusBlocked}}, true},
		{&child.Reply{Result: &harness.Message{Status: harness.StatusOK}}, false},
	} {
		if got := stuck(tc.rep); got != tc.want {
			t.Errorf("stuck(%+v) = %v, want %v", tc.rep, got, tc.want)
		}
	}
}

// TestWatchdog checks that an iteration's watchdog is 50 times the
// slowest sequential run of its methods, at least minWatchdog, and at
// most a third of the budget: a deadlock is seen before the budget ends
// even when a loaded machine slowed the probes down.
func TestWatchdog(t *testing.T) {
	r := &typeRun{cfg: Config{Budget: 9 * time.Second}, seqTime: map[string]time.Duration{
		"Fast": time.Millisecond, "Slow": 20 * time.Millisecond, "Loaded": 400 * time.Millisecond}}
	for _, tc := range []struct {
		ms   []string
		want time.Duration
	}{
		{[]string{"Fast"}, minWatchdog},
		{[]string{"Fast", "Slow"}, time.Second},
		{[]string{"Loaded", "Fast"}, 3 * time.Second},
	} {
		if got := r.watchdog(tc.ms...); got != tc.want {
			t.Errorf("watchdog(%v) = %v, want %v", tc.ms, got, tc.want)
		}
	}
}
