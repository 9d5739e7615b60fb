package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// Counter is correctly synchronised.
type Counter struct {
	mu sync.Mutex
	n  int
}

func NewCounter(start int) *Counter { return &Counter{n: start} }

func (c *Counter) Add(d int) { c.mu.Lock(); c.n += d; c.mu.Unlock() }

func (c *Counter) Get() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }

// Fail returns an error when d is negative.
func (c *Counter) Fail(d int) error {
	if d < 0 {
		return errors.New("negative")
	}
	c.Add(d)
	return nil
}

// Boom panics on every call.
func (c *Counter) Boom() { panic("boom") }

// Twice locks its mutex twice: a self-deadlock.
func (c *Counter) Twice() { c.mu.Lock(); c.mu.Lock() }

// Equal locks both counters, receiver first: an ABBA deadlock when called
// as a.Equal(b) and b.Equal(a) concurrently. The sleep makes it certain.
func (c *Counter) Equal(o *Counter) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	o.mu.Lock()
	defer o.mu.Unlock()
	return c.n == o.n
}

// Spin never returns but never blocks.
func (c *Counter) Spin() {
	for {
		time.Sleep(time.Millisecond)
	}
}

func NewCounterErr(fail bool) (*Counter, error) {
	if fail {
		return nil, errors.New("refused")
	}
	return &Counter{}, nil
}

func testRegistry() *Registry {
	r := NewRegistry()
	r.RegisterType("Counter", func() any { return new(Counter) })
	r.RegisterFunc("NewCounter", NewCounter)
	r.RegisterFunc("NewCounterErr", NewCounterErr)
	return r
}

func lit(s string) Value { return Value{K: KLit, Lit: s} }

func do(t *testing.T, r *Registry, req Request) (Message, []Message) {
	t.Helper()
	if req.Watchdog == 0 {
		req.Watchdog = 100 * time.Millisecond
	}
	var events []Message
	var mu sync.Mutex
	res := r.Do(req, func(m Message) error {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, m)
		return nil
	})
	return res, events
}

func TestRunOK(t *testing.T) {
	req := Request{Op: OpRun, Test: Test{
		Type:    "Counter",
		Objects: []Call{{Fn: "NewCounter", Args: []Value{lit("3")}}},
		Prefix:  []Call{{Fn: "Add", Args: []Value{lit("1")}}, {Fn: "Fail", Args: []Value{lit("-1")}}},
		Suffix:  []Call{{Fn: "Add", Args: []Value{lit("max")}}, {Fn: "Get"}},
		Iters:   20,
	}}
	res, events := do(t, testRegistry(), req)
	if res.Status != StatusOK {
		t.Fatalf("status %s (%s), want ok", res.Status, res.Msg)
	}
	if len(res.Dropped) != 1 || res.Dropped[0].Index != 1 || !strings.Contains(res.Dropped[0].Reason, "negative") {
		t.Errorf("dropped %v, want prefix 1 (negative)", res.Dropped)
	}
	var steps []string
	for _, e := range events {
		if e.Ev == EvStep {
			steps = append(steps, e.Step)
		}
	}
	// The first iteration names each step; the 19 others their set-up
	// and their suffixes.
	want := "object 0,prefix 0,prefix 1,args,suffix" + strings.Repeat(",setup,suffix", 19)
	if got := strings.Join(steps, ","); got != want {
		t.Errorf("steps %s, want %s", got, want)
	}
}

func TestRunPanic(t *testing.T) {
	req := Request{Op: OpRun, Test: Test{
		Type:    "Counter",
		Objects: []Call{{}},
		Suffix:  []Call{{Fn: "Get"}, {Fn: "Boom"}},
		Iters:   5,
	}}
	res, _ := do(t, testRegistry(), req)
	if res.Status != StatusPanic || res.Goroutine != 1 || res.Msg != "boom" || res.Iter != 0 {
		t.Fatalf("got %s goroutine %d %q iter %d, want panic in goroutine 1 \"boom\" at iteration 0",
			res.Status, res.Goroutine, res.Msg, res.Iter)
	}
	if !strings.Contains(res.Stacks[1], "Boom") {
		t.Errorf("stack of the panic does not show Boom:\n%s", res.Stacks[1])
	}
}

func TestRunDeadlock(t *testing.T) {
	req := Request{Op: OpRun, Test: Test{
		Type:    "Counter",
		Objects: []Call{{}, {Fn: "NewCounter", Args: []Value{lit("0")}}},
		Suffix: []Call{
			{Recv: 0, Fn: "Equal", Args: []Value{{K: KObj, Obj: 1}}},
			{Recv: 1, Fn: "Equal", Args: []Value{{K: KObj, Obj: 0}}},
		},
		Iters: 10,
	}}
	res, _ := do(t, testRegistry(), req)
	if res.Status != StatusHang {
		t.Fatalf("status %s (%s), want hang", res.Status, res.Msg)
	}
	for i, w := range res.Waits {
		if w != "sync.Mutex.Lock" || !strings.Contains(res.Stacks[i], "Equal") {
			t.Errorf("goroutine %d: wait %q, stack\n%s\nwant sync.Mutex.Lock in Equal", i, w, res.Stacks[i])
		}
	}
}

func TestSeq(t *testing.T) {
	r := testRegistry()
	for _, tc := range []struct {
		suffix     []Call
		status     string
		goroutine  int
		wait, want string
	}{
		{[]Call{{Fn: "Add", Args: []Value{lit("2")}}, {Fn: "Get"}}, StatusOK, -1, "", ""},
		{[]Call{{Fn: "Get"}, {Fn: "Boom"}}, StatusPanic, 1, "", "boom"},
		{[]Call{{Fn: "Twice"}}, StatusBlocked, 0, "sync.Mutex.Lock", "sync.Mutex.Lock"},
		// A busy call is caught sleeping, runnable or running.
		{[]Call{{Fn: "Spin"}}, StatusRunning, 0, "busy", "busy"},
	} {
		req := Request{Op: OpSeq, HardCap: 500 * time.Millisecond, Test: Test{
			Type: "Counter", Objects: []Call{{Fn: "NewCounter", Args: []Value{lit("1")}}}, Suffix: tc.suffix,
		}}
		res, _ := do(t, r, req)
		if w := res.Waits[0]; tc.wait == "busy" && w != "" && !Blocked(w) && res.Msg == w {
			res.Waits[0], res.Msg = "busy", "busy"
		}
		if res.Status != tc.status || res.Goroutine != tc.goroutine || res.Waits[0] != tc.wait || res.Msg != tc.want {
			t.Errorf("%v: got %s goroutine %d wait %q msg %q, want %s %d %q %q", tc.suffix,
				res.Status, res.Goroutine, res.Waits[0], res.Msg, tc.status, tc.goroutine, tc.wait, tc.want)
		}
		if tc.status == StatusOK && len(res.Durations) != len(tc.suffix) {
			t.Errorf("%v: %d durations, want %d", tc.suffix, len(res.Durations), len(tc.suffix))
		}
	}
}

func TestObjectFailed(t *testing.T) {
	for _, obj := range []Call{
		{Fn: "NewCounterErr", Args: []Value{lit("true")}},
		{Fn: "NewCounter", Args: []Value{lit("x")}},
		{Fn: "NoSuch"},
	} {
		res, _ := do(t, testRegistry(), Request{Op: OpSeq, Test: Test{Type: "Counter", Objects: []Call{obj}}})
		if res.Status != StatusObjectFailed || res.Step != "object 0" {
			t.Errorf("%v: got %s at %q (%s), want object-failed at object 0", obj, res.Status, res.Step, res.Msg)
		}
	}
}

func TestBadRequests(t *testing.T) {
	for _, req := range []Request{
		{Op: OpRun, Test: Test{Type: "Nope"}},
		{Op: "fly", Test: Test{Type: "Counter"}},
		{Op: OpRun, Test: Test{Type: "Counter", Objects: []Call{{}}, Suffix: []Call{{Fn: "Get"}}}},
	} {
		if res, _ := do(t, testRegistry(), req); res.Status != StatusError {
			t.Errorf("%+v: status %s, want error", req, res.Status)
		}
	}
	res, _ := do(t, testRegistry(), Request{Op: OpSeq, Test: Test{
		Type: "Counter", Objects: []Call{{}}, Suffix: []Call{{Fn: "Missing"}}}})
	if res.Status != StatusArgsFailed || !strings.Contains(res.Msg, "no method Missing") {
		t.Errorf("missing method: got %s %q, want args-failed", res.Status, res.Msg)
	}
}

// TestServe runs requests through the line protocol.
func TestServe(t *testing.T) {
	r := testRegistry()
	req := Request{Op: OpSeq, Watchdog: time.Second, Test: Test{
		Type: "Counter", Objects: []Call{{}}, Suffix: []Call{{Fn: "Get"}}}}
	line, _ := json.Marshal(req)
	in := strings.NewReader(string(line) + "\n" + string(line) + "\n")
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() { errc <- r.Serve(in, pw); pw.Close() }()
	var results int
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		var m Message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("bad message %q: %v", sc.Text(), err)
		}
		if m.Ev == EvResult {
			results++
			if m.Status != StatusOK {
				t.Errorf("result %s, want ok", m.Status)
			}
		}
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if results != 2 {
		t.Errorf("%d results, want 2", results)
	}
}

type level int8

// sizes is a configuration struct.
type sizes struct {
	Size  int
	Every time.Duration
	Name  string
}

func TestBuild(t *testing.T) {
	r := testRegistry()
	objs := []reflect.Value{reflect.ValueOf(&Counter{n: 7})}
	for _, tc := range []struct {
		v    Value
		t    reflect.Type
		want any
	}{
		{lit("max"), reflect.TypeFor[int8](), int8(math.MaxInt8)},
		{lit("min"), reflect.TypeFor[int64](), int64(math.MinInt64)},
		{lit("max"), reflect.TypeFor[uint16](), uint16(math.MaxUint16)},
		{lit("-1"), reflect.TypeFor[level](), level(-1)},
		{lit("max"), reflect.TypeFor[float32](), float32(math.MaxFloat32)},
		{lit("a"), reflect.TypeFor[string](), "a"},
		{Value{K: KLit, Lit: "1", Basic: "int"}, reflect.TypeFor[any](), 1},
		{Value{K: KSlice, Elems: []Value{lit("1"), lit("2")}}, reflect.TypeFor[[]byte](), []byte{1, 2}},
		{Value{K: KSlice}, reflect.TypeFor[[]string](), []string{}},
		{Value{K: KZero}, reflect.TypeFor[[]string](), []string(nil)},
		{Value{K: KMap}, reflect.TypeFor[map[string]int](), map[string]int{}},
		{Value{K: KCall, Call: &Call{Fn: "NewCounter", Args: []Value{lit("2")}}}, reflect.TypeFor[Counter](), Counter{n: 2}},
		{Value{K: KCtx}, reflect.TypeFor[context.Context](), context.Background()},
		{Value{K: KStruct, Elems: []Value{{K: KLit, Field: "Size", Lit: "4"}, {K: KLit, Field: "Every", Lit: "1000000"}}},
			reflect.TypeFor[sizes](), sizes{Size: 4, Every: time.Millisecond}},
		{Value{K: KStruct, Elems: []Value{{K: KLit, Field: "Size", Lit: "2"}}}, reflect.TypeFor[*sizes](), &sizes{Size: 2}},
	} {
		got, err := r.build(tc.v, tc.t, &scope{objs: objs})
		if err != nil {
			t.Errorf("%+v as %s: %v", tc.v, tc.t, err)
			continue
		}
		if !reflect.DeepEqual(got.Interface(), tc.want) {
			t.Errorf("%+v as %s: got %#v, want %#v", tc.v, tc.t, got.Interface(), tc.want)
		}
	}
	// A directional channel parameter gets a bidirectional channel
	// converted to its type.
	for _, ct := range []reflect.Type{reflect.TypeFor[<-chan int](), reflect.TypeFor[chan<- string](), reflect.TypeFor[chan int]()} {
		got, err := r.build(Value{K: KChan}, ct, &scope{objs: objs})
		if err != nil || got.Type() != ct || got.Cap() != 1 {
			t.Errorf("chan value as %s: %v, %v", ct, got, err)
		}
	}
	// Shared objects go to parameters of the type, pointer or not, and to
	// interfaces they implement.
	for _, pt := range []reflect.Type{reflect.TypeFor[*Counter](), reflect.TypeFor[any]()} {
		if got, err := r.build(Value{K: KObj}, pt, &scope{objs: objs}); err != nil || got.Interface() != objs[0].Interface() {
			t.Errorf("object as %s: got %v, %v", pt, got, err)
		}
	}
	fn, err := r.build(Value{K: KFunc}, reflect.TypeFor[func(int) (string, error)](), &scope{objs: objs})
	if err != nil {
		t.Fatal(err)
	}
	if s, err := fn.Interface().(func(int) (string, error))(3); s != "" || err != nil {
		t.Errorf("no-op func returned %q, %v", s, err)
	}
	for _, bad := range []struct {
		v Value
		t reflect.Type
	}{
		{lit("300"), reflect.TypeFor[int8]()},
		{lit("x"), reflect.TypeFor[struct{}]()},
		{Value{K: KObj, Obj: 3}, reflect.TypeFor[*Counter]()},
		{Value{K: KObj}, reflect.TypeFor[string]()},
		{Value{K: KNew}, reflect.TypeFor[int]()},
		{Value{K: "weird"}, reflect.TypeFor[int]()},
	} {
		if _, err := r.build(bad.v, bad.t, &scope{objs: objs}); err == nil {
			t.Errorf("%+v as %s: no error", bad.v, bad.t)
		}
	}
}

func TestParseGoroutines(t *testing.T) {
	dump := `goroutine 7 [running]:
main.f()
	/x.go:3 +0x1

goroutine 20 [sync.Mutex.Lock, 2 minutes]:
sync.(*Mutex).Lock(0x0)
	/sync/mutex.go:46 +0x15

goroutine 21 [chan receive, locked to thread]:
main.g()
`
	gs := ParseGoroutines(dump)
	if len(gs) != 3 {
		t.Fatalf("%d goroutines, want 3", len(gs))
	}
	want := []struct {
		id    int
		state string
	}{{7, "running"}, {20, "sync.Mutex.Lock"}, {21, "chan receive"}}
	for i, w := range want {
		if gs[i].ID != w.id || gs[i].State != w.state {
			t.Errorf("goroutine %d: got %d %q, want %d %q", i, gs[i].ID, gs[i].State, w.id, w.state)
		}
	}
	if !strings.HasPrefix(gs[1].Stack, "goroutine 20 [") || !strings.Contains(gs[1].Stack, "mutex.go") {
		t.Errorf("stack of goroutine 20:\n%s", gs[1].Stack)
	}
	for state, want := range map[string][2]bool{
		"sync.Mutex.Lock":     {true, true},
		"sync.RWMutex.RLock":  {true, true},
		"chan send":           {true, false},
		"select (no cases)":   {true, false},
		"sync.WaitGroup.Wait": {true, false},
		"running":             {false, false},
		"sleep":               {false, false},
	} {
		if Blocked(state) != want[0] || LockWait(state) != want[1] {
			t.Errorf("%s: Blocked %v LockWait %v, want %v", state, Blocked(state), LockWait(state), want)
		}
	}
}

// TestLockedOffspring checks that the goroutines a call started, directly
// or not, and that wait for a lock are found in a dump, and only those.
func TestLockedOffspring(t *testing.T) {
	dump := ParseGoroutines(`goroutine 7 [sync.WaitGroup.Wait]:
p.(*F).Notify(0xc0)
	/p/f.go:20 +0x1
created by harness.step in goroutine 5

goroutine 8 [sync.Mutex.Lock]:
p.(*F).Notify.func1()
	/p/f.go:15 +0x1
created by p.(*F).Notify in goroutine 7

goroutine 9 [chan receive]:
p.(*F).Notify.func2()
	/p/f.go:17 +0x1
created by p.(*F).Notify in goroutine 7

goroutine 10 [sync.Mutex.Lock]:
p.helper()
	/p/f.go:30 +0x1
created by p.(*F).Notify.func2 in goroutine 9

goroutine 11 [sync.Mutex.Lock]:
q.other()
	/q/q.go:3 +0x1
created by main.main in goroutine 1
`)
	got := lockedOffspring(dump, 7)
	if len(got) != 2 || !strings.HasPrefix(got[0], "goroutine 8 ") || !strings.HasPrefix(got[1], "goroutine 10 ") {
		t.Errorf("offspring of 7 waiting for a lock: %q, want goroutines 8 and 10", got)
	}
	if got := lockedOffspring(dump, 1); len(got) != 1 {
		t.Errorf("offspring of 1: %q, want goroutine 11", got)
	}
}
