package harness

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Cell is a synchronised counter whose methods fail in the ways a setup
// can fail.
type Cell struct {
	mu    sync.Mutex
	n     int
	calls *int32 // shared by the cells of one test
}

func (c *Cell) Add(d int) { c.mu.Lock(); c.n += d; c.mu.Unlock() }

func (c *Cell) Get() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }

// LockAndPanic panics while holding the lock: the cell stays locked.
func (c *Cell) LockAndPanic() { c.mu.Lock(); panic("locked up") }

// LockAndPanicLater does so from its second call on (counted over all
// the cells of a test).
func (c *Cell) LockAndPanicLater() {
	if atomic.AddInt32(c.calls, 1) > 1 {
		c.LockAndPanic()
	}
}

// LockLater returns with the lock held from its second call on (counted
// over all the cells of a test).
func (c *Cell) LockLater() {
	if atomic.AddInt32(c.calls, 1) > 1 {
		c.mu.Lock()
	}
}

// Use takes another cell.
func (c *Cell) Use(o *Cell) {}

// Other is not the type under test.
type Other struct{}

// cellRegistry returns a registry of Cell whose constructors count their
// calls in calls: NewCell, and LaterFailing, LaterPanicking, LaterFalse,
// which fail from their second call on.
func cellRegistry(calls *int32) *Registry {
	r := NewRegistry()
	r.RegisterType("Cell", func() interface{} { return &Cell{calls: calls} })
	r.RegisterFunc("NewCell", func() *Cell { atomic.AddInt32(calls, 1); return &Cell{calls: calls} })
	r.RegisterFunc("LaterFailing", func() (*Cell, error) {
		if atomic.AddInt32(calls, 1) > 1 {
			return nil, errors.New("out of cells")
		}
		return &Cell{calls: calls}, nil
	})
	r.RegisterFunc("LaterPanicking", func() *Cell {
		if atomic.AddInt32(calls, 1) > 1 {
			panic("no more cells")
		}
		return &Cell{calls: calls}
	})
	r.RegisterFunc("LaterFalse", func() (*Cell, bool) {
		return &Cell{calls: calls}, atomic.AddInt32(calls, 1) == 1
	})
	return r
}

// steps returns the steps announced in events, comma-separated.
func steps(events []Message) string {
	var s []string
	for _, e := range events {
		if e.Ev == EvStep {
			s = append(s, e.Step)
		}
	}
	return strings.Join(s, ",")
}

// TestPrefixPanicRebuilds checks that a prefix call that panics with the
// object locked is dropped and the objects rebuilt, so that the suffixes
// run on unlocked objects.
func TestPrefixPanicRebuilds(t *testing.T) {
	var calls int32
	for _, op := range []string{OpRun, OpSeq} {
		atomic.StoreInt32(&calls, 0)
		req := Request{Op: op, Test: Test{
			Type:    "Cell",
			Objects: []Call{{Fn: "NewCell"}},
			Prefix:  []Call{{Fn: "Add", Args: []Value{lit("1")}}, {Fn: "LockAndPanic"}, {Fn: "Add", Args: []Value{lit("2")}}},
			Suffix:  []Call{{Fn: "Get"}, {Fn: "Add", Args: []Value{lit("3")}}},
			Iters:   5,
		}}
		res, events := do(t, cellRegistry(&calls), req)
		if res.Status != StatusOK {
			t.Fatalf("%s: status %s at %s (%s), want ok", op, res.Status, res.Step, res.Msg)
		}
		if len(res.Dropped) != 1 || res.Dropped[0].Index != 1 || res.Dropped[0].Reason != "LockAndPanic: panic: locked up" {
			t.Errorf("%s: dropped %+v, want prefix 1 (LockAndPanic: panic: locked up)", op, res.Dropped)
		}
		want := "object 0,prefix 0,prefix 1,object 0,prefix 0,prefix 2,args"
		if op == OpRun {
			want += ",suffix" + strings.Repeat(",setup,suffix", 4) // 5 iterations
		} else {
			want += ",suffix 0,suffix 1"
		}
		if got := steps(events); got != want {
			t.Errorf("%s: steps %s, want %s", op, got, want)
		}
		wantCalls := int32(2) // the first build and the rebuild
		if op == OpRun {
			wantCalls += 4 // one per later iteration
		}
		if got := atomic.LoadInt32(&calls); got != wantCalls {
			t.Errorf("%s: %d constructor calls, want %d", op, got, wantCalls)
		}
	}
}

// TestPrefixPanicsAgain checks that a prefix that panics again once the
// first panicking call is dropped fails the setup instead of running the
// suffixes.
func TestPrefixPanicsAgain(t *testing.T) {
	var calls int32
	req := Request{Op: OpRun, Test: Test{
		Type:    "Cell",
		Objects: []Call{{}},
		Prefix:  []Call{{Fn: "LockAndPanic"}, {Fn: "Add", Args: []Value{lit("1")}}, {Fn: "LockAndPanic"}},
		Suffix:  []Call{{Fn: "Get"}, {Fn: "Get"}},
		Iters:   5,
	}}
	res, events := do(t, cellRegistry(&calls), req)
	if res.Status != StatusSetupFailed || res.Step != "prefix 2" || res.Msg != "LockAndPanic: panic: locked up" || res.Iter != 0 {
		t.Fatalf("got %s at %q iter %d (%s), want %s at prefix 2 iter 0", res.Status, res.Step, res.Iter, res.Msg, StatusSetupFailed)
	}
	if !strings.Contains(res.Stacks[0], "LockAndPanic") {
		t.Errorf("stack does not show LockAndPanic:\n%s", res.Stacks[0])
	}
	if len(res.Dropped) != 1 || res.Dropped[0].Index != 0 {
		t.Errorf("dropped %+v, want prefix 0", res.Dropped)
	}
	if got, want := steps(events), "object 0,prefix 0,object 0,prefix 1,prefix 2"; got != want {
		t.Errorf("steps %s, want %s", got, want)
	}
}

// TestLaterSetupFails checks that a setup that fails after the first
// iteration is StatusSetupFailed at the failing step, never a failure of
// the suffixes.
func TestLaterSetupFails(t *testing.T) {
	for _, tc := range []struct {
		name    string
		objects []Call
		prefix  []Call
		suffix  []Call
		step    string
		msg     string
	}{
		{"constructor error", []Call{{Fn: "LaterFailing"}}, nil, []Call{{Fn: "Get"}, {Fn: "Get"}},
			"object 0", "LaterFailing: out of cells"},
		{"constructor panic", []Call{{Fn: "LaterPanicking"}}, nil, []Call{{Fn: "Get"}, {Fn: "Get"}},
			"object 0", "LaterPanicking: panic: no more cells"},
		{"constructor false", []Call{{}, {Fn: "LaterFalse"}}, nil, []Call{{Fn: "Get"}, {Fn: "Get"}},
			"object 1", "LaterFalse returned false"},
		{"prefix panic", []Call{{}}, []Call{{Fn: "LockAndPanicLater"}}, []Call{{Fn: "Get"}, {Fn: "Get"}},
			"prefix 0", "LockAndPanicLater: panic: locked up"},
		{"argument", []Call{{}}, nil, []Call{{Fn: "Get"}, {Fn: "Use", Args: []Value{{K: KCall, Call: &Call{Fn: "LaterFailing"}}}}},
			"args", "suffix 1: Use: argument 0: LaterFailing: out of cells"},
	} {
		var calls int32
		res, _ := do(t, cellRegistry(&calls), Request{Op: OpRun, Test: Test{
			Type: "Cell", Objects: tc.objects, Prefix: tc.prefix, Suffix: tc.suffix, Iters: 3,
		}})
		if res.Status != StatusSetupFailed || res.Step != tc.step || res.Iter != 1 || res.Msg != tc.msg {
			t.Errorf("%s: got %s at %q iter %d (%s), want %s at %q iter 1 (%s)",
				tc.name, res.Status, res.Step, res.Iter, res.Msg, StatusSetupFailed, tc.step, tc.msg)
		}
	}
}

// TestLaterPrefixBlocks checks that a prefix call that blocks in a later
// iteration is reported at its step and iteration.
func TestLaterPrefixBlocks(t *testing.T) {
	var calls int32
	res, _ := do(t, cellRegistry(&calls), Request{Op: OpRun, Watchdog: 50 * time.Millisecond, Test: Test{
		Type:    "Cell",
		Objects: []Call{{}},
		Prefix:  []Call{{Fn: "LockLater"}, {Fn: "Add", Args: []Value{lit("1")}}},
		Suffix:  []Call{{Fn: "Get"}, {Fn: "Get"}},
		Iters:   3,
	}})
	if res.Status != StatusBlocked || res.Step != "prefix 1" || res.Iter != 1 || res.Waits[0] != "sync.Mutex.Lock" {
		t.Fatalf("got %s at %q iter %d wait %q (%s), want blocked at prefix 1 iter 1 in sync.Mutex.Lock",
			res.Status, res.Step, res.Iter, res.Waits[0], res.Msg)
	}
}

// TestConstructorResults checks the results a constructor may have.
func TestConstructorResults(t *testing.T) {
	type getter interface{ Get() int }
	ctors := map[string]interface{}{
		"Ptr":         func() *Cell { return &Cell{n: 1} },
		"Value":       func() Cell { return Cell{n: 2} },
		"IfacePtr":    func() getter { return &Cell{n: 3} },
		"IfaceValue":  func() interface{} { return Cell{n: 4} },
		"BoolTrue":    func() (getter, bool) { return &Cell{n: 5}, true },
		"BoolFalse":   func() (*Cell, bool) { return &Cell{}, false },
		"Error":       func() (interface{}, error) { return nil, errors.New("no cell") },
		"NilIface":    func() getter { return nil },
		"NilPtr":      func() *Cell { return nil },
		"NilInIface":  func() interface{} { return (*Cell)(nil) },
		"OtherInIfce": func() interface{} { return &Other{} },
		"Panics":      func() *Cell { panic("no") },
		"Nothing":     func() {},
	}
	r := NewRegistry()
	r.RegisterType("Cell", func() interface{} { return &Cell{} })
	for name, fn := range ctors {
		r.RegisterFunc(name, fn)
	}
	for _, tc := range []struct {
		fn   string
		n    int    // the counter of the object built
		fail string // the message of a failure
	}{
		{"Ptr", 1, ""},
		{"Value", 2, ""},
		{"IfacePtr", 3, ""},
		{"IfaceValue", 4, ""},
		{"BoolTrue", 5, ""},
		{"BoolFalse", 0, "BoolFalse returned false"},
		{"Error", 0, "Error: no cell"},
		{"NilIface", 0, "NilIface returned a nil harness.getter"},
		{"NilPtr", 0, "NilPtr returned a nil *harness.Cell"},
		{"NilInIface", 0, "NilInIface returned a nil *harness.Cell"},
		{"OtherInIfce", 0, "OtherInIfce returned *harness.Other, not *harness.Cell"},
		{"Panics", 0, "Panics: panic: no"},
		{"Nothing", 0, "Nothing returns nothing"},
	} {
		x := &execution{r: r, req: Request{Test: Test{Type: "Cell"}}}
		obj, err := x.newObject(Call{Fn: tc.fn}, nil)
		if tc.fail != "" {
			if err == nil || err.Error() != tc.fail {
				t.Errorf("%s: error %v, want %q", tc.fn, err, tc.fail)
			}
			res, _ := do(t, r, Request{Op: OpSeq, Test: Test{Type: "Cell", Objects: []Call{{Fn: tc.fn}}}})
			if res.Status != StatusObjectFailed || res.Step != "object 0" || res.Msg != tc.fail {
				t.Errorf("%s: got %s at %q (%s), want %s at object 0", tc.fn, res.Status, res.Step, res.Msg, StatusObjectFailed)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.fn, err)
			continue
		}
		c, ok := obj.Interface().(*Cell)
		if !ok || c.n != tc.n {
			t.Errorf("%s: built %#v, want a *Cell with n = %d", tc.fn, obj.Interface(), tc.n)
		}
	}
	// A constructor of an argument may return an interface: its dynamic
	// value goes to a parameter the interface does not fit.
	v, err := r.build(Value{K: KCall, Call: &Call{Fn: "IfacePtr"}}, reflect.TypeOf(&Cell{}), nil)
	if err != nil || v.Interface().(*Cell).n != 3 {
		t.Errorf("IfacePtr as *Cell argument: %v, %v", v, err)
	}
}

// TestRegisterTypeOf checks the registration of a type by a pointer.
func TestRegisterTypeOf(t *testing.T) {
	r := NewRegistry()
	r.RegisterTypeOf("Cell", (*Cell)(nil))
	r.RegisterTypeOf("Bad", Cell{})
	x := &execution{r: r, req: Request{Test: Test{Type: "Cell"}}}
	a, errA := x.newObject(Call{}, nil)
	b, errB := x.newObject(Call{}, nil)
	if errA != nil || errB != nil || a.Type() != reflect.TypeOf(&Cell{}) || a.Pointer() == b.Pointer() {
		t.Fatalf("zero objects %v (%v), %v (%v), want two distinct *Cell", a, errA, b, errB)
	}
	res, _ := do(t, r, Request{Op: OpRun, Test: Test{Type: "Cell", Objects: []Call{{}},
		Suffix: []Call{{Fn: "Add", Args: []Value{lit("1")}}, {Fn: "Get"}}, Iters: 3}})
	if res.Status != StatusOK {
		t.Errorf("Cell: got %s (%s), want ok", res.Status, res.Msg)
	}
	res, _ = do(t, r, Request{Op: OpSeq, Test: Test{Type: "Bad", Objects: []Call{{}}, Suffix: []Call{{Fn: "Get"}}}})
	if res.Status != StatusError || !strings.Contains(res.Msg, "not a pointer") {
		t.Errorf("Bad: got %s (%s), want error saying it is not a pointer", res.Status, res.Msg)
	}
}

// add is an unexported method: reflection cannot call it by name.
func (c *Cell) add(d int, more ...int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += d
	for _, m := range more {
		c.n += m
	}
	return c.n
}

// TestUnexportedMethod checks that a registered method expression stands
// for a method reflection cannot call, in sequential and concurrent
// requests, variadic parameters included.
func TestUnexportedMethod(t *testing.T) {
	r := NewRegistry()
	r.RegisterType("Cell", func() interface{} { return &Cell{} })
	test := Test{Type: "Cell", Objects: []Call{{}},
		Suffix: []Call{{Fn: "add", Args: []Value{{K: KLit, Lit: "2"}, {K: KSlice, Elems: []Value{{K: KLit, Lit: "3"}}}}}}}
	if res, _ := do(t, r, Request{Op: OpSeq, Test: test}); res.Status == StatusOK || !strings.Contains(res.Msg, "no method add") {
		t.Errorf("unregistered add: %s %q, want a failure saying there is no method add", res.Status, res.Msg)
	}
	r.RegisterMethod("Cell", "add", (*Cell).add)
	if res, _ := do(t, r, Request{Op: OpSeq, Test: test}); res.Status != StatusOK {
		t.Fatalf("add: %s at %s: %s", res.Status, res.Step, res.Msg)
	}
	x := &execution{r: r, req: Request{Test: test}}
	c := &Cell{n: 1}
	if o := x.callMethod(test.Suffix[0], &scope{objs: []reflect.Value{reflect.ValueOf(c)}}); o.failed() || c.n != 6 {
		t.Errorf("add(2, 3) on 1: %v, n = %d, want 6", o.String(), c.n)
	}
	test.Suffix = append(test.Suffix, Call{Fn: "Get"})
	test.Iters = 5
	if res, _ := do(t, r, Request{Op: OpRun, Test: test}); res.Status != StatusOK {
		t.Errorf("add ∥ Get: %s: %s", res.Status, res.Msg)
	}
}

// Ticket only accepts the number its Take returned.
type Ticket struct {
	mu sync.Mutex
	n  int
}

func (t *Ticket) Take() (int, bool) { t.mu.Lock(); defer t.mu.Unlock(); t.n += 7; return t.n, true }

func (t *Ticket) Check(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n != t.n {
		panic("not our ticket")
	}
}

// TestPrefixResults checks that a call is given a result of a prefix
// call made in the same set-up (KResult), rebuilt at every set-up, and
// that a reference to a result that does not exist fails the arguments.
func TestPrefixResults(t *testing.T) {
	r := NewRegistry()
	r.RegisterTypeOf("Ticket", (*Ticket)(nil))
	ticket := Value{K: KResult, Prefix: 0, Result: 0}
	test := Test{Type: "Ticket", Objects: []Call{{}}, Prefix: []Call{{Fn: "Take"}},
		Suffix: []Call{{Fn: "Check", Args: []Value{ticket}}, {Fn: "Check", Args: []Value{ticket}}}, Iters: 3}
	if res, _ := do(t, r, Request{Op: OpSeq, Test: test}); res.Status != StatusOK {
		t.Errorf("seq: %s %s, want ok", res.Status, res.Msg)
	}
	if res, _ := do(t, r, Request{Op: OpRun, Test: test}); res.Status != StatusOK {
		t.Errorf("run: %s %s, want ok", res.Status, res.Msg)
	}
	test.Suffix[0].Args = []Value{lit("0")}
	if res, _ := do(t, r, Request{Op: OpSeq, Test: test}); res.Status != StatusPanic {
		t.Errorf("a made-up ticket: %s, want a panic", res.Status)
	}
	test.Suffix[0].Args = []Value{{K: KResult, Prefix: 0, Result: 2}}
	if res, _ := do(t, r, Request{Op: OpSeq, Test: test}); res.Status != StatusArgsFailed || !strings.Contains(res.Msg, "no result 2 of prefix call 0") {
		t.Errorf("a missing result: %s %q, want args-failed", res.Status, res.Msg)
	}
}
