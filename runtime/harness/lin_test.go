package harness

import (
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Tally loses an update: Inc reads and writes its count in two critical
// sections.
type Tally struct {
	mu sync.Mutex
	n  int
}

func (t *Tally) Inc() {
	t.mu.Lock()
	n := t.n
	t.mu.Unlock()
	time.Sleep(time.Millisecond)
	t.mu.Lock()
	t.n = n + 1
	t.mu.Unlock()
}

func (t *Tally) Value() int { t.mu.Lock(); defer t.mu.Unlock(); return t.n }

// SafeTally is Tally in one critical section.
type SafeTally struct {
	mu sync.Mutex
	n  int
}

func (t *SafeTally) Inc() { t.mu.Lock(); t.n++; t.mu.Unlock() }

func (t *SafeTally) Value() int { t.mu.Lock(); defer t.mu.Unlock(); return t.n }

// IDs hands two callers the same ID.
type IDs struct {
	mu   sync.Mutex
	last int
}

func (s *IDs) Next() int {
	s.mu.Lock()
	v := s.last + 1
	s.mu.Unlock()
	time.Sleep(time.Millisecond)
	s.mu.Lock()
	s.last = v
	s.mu.Unlock()
	return v
}

// Stats is an inconsistent snapshot: its parts are read in two critical
// sections, and Total must be Hits + Misses.
type Stats struct{ Hits, Misses, Total int }

type Meter struct {
	mu sync.Mutex
	s  Stats
}

// Hit counts a hit, a little late, so that it falls between the two
// sections of a concurrent Stats.
func (m *Meter) Hit() {
	time.Sleep(time.Millisecond)
	m.mu.Lock()
	m.s.Hits++
	m.s.Total++
	m.mu.Unlock()
}

func (m *Meter) Stats() Stats {
	var s Stats
	m.mu.Lock()
	s.Hits = m.s.Hits
	m.mu.Unlock()
	time.Sleep(3 * time.Millisecond)
	m.mu.Lock()
	s.Misses, s.Total = m.s.Misses, m.s.Total
	m.mu.Unlock()
	return s
}

// Clocked reads the clock and iterates a map: its outcomes differ
// between sequential runs, and must not be taken for violations.
type Clocked struct {
	mu   sync.Mutex
	last time.Time
	seen map[string]bool
}

func (c *Clocked) Touch(k string) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[string]bool{"x": true, "y": true, "z": true}
	}
	c.seen[k] = true
	d := time.Since(c.last)
	c.last = time.Now()
	return d
}

func (c *Clocked) Keys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for k := range c.seen {
		out = append(out, k)
	}
	return out
}

func linRegistry() *Registry {
	r := NewRegistry()
	r.RegisterTypeOf("Tally", (*Tally)(nil))
	r.RegisterTypeOf("SafeTally", (*SafeTally)(nil))
	r.RegisterTypeOf("IDs", (*IDs)(nil))
	r.RegisterTypeOf("Meter", (*Meter)(nil))
	r.RegisterTypeOf("Clocked", (*Clocked)(nil))
	r.RegisterTypeOf("Rare", (*Rare)(nil))
	return r
}

func linRequest(typ string, suffix []Call, observers ...Call) Request {
	return Request{Op: OpRun, Test: Test{Type: typ, Objects: []Call{{}}, Suffix: suffix, Iters: 50},
		Lin: &Lin{Observers: observers}}
}

func TestNotLinearizable(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
		part string // a label of a part that differs
	}{
		{"lost update", linRequest("Tally", []Call{{Fn: "Inc"}, {Fn: "Inc"}}, Call{Fn: "Value"}), "a.Value() result 0 is 1"},
		{"duplicate ID", linRequest("IDs", []Call{{Fn: "Next"}, {Fn: "Next"}}), "a.Next (goroutine 1) result 0 is 1"},
		{"inconsistent snapshot", linRequest("Meter", []Call{{Fn: "Hit"}, {Fn: "Stats"}}), "a.Stats (goroutine 2) result 0 is {0 0 1}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := do(t, linRegistry(), tc.req)
			if res.Status != StatusNotLinearizable {
				t.Fatalf("status %s (%s %s), want %s", res.Status, res.Msg, res.LinOff, StatusNotLinearizable)
			}
			if !strings.Contains(res.Msg, tc.part) {
				t.Errorf("message %q does not name %q", res.Msg, tc.part)
			}
			lr := res.Lin
			if lr == nil || len(lr.Got) != len(lr.Labels) || len(lr.Seq[0]) != len(lr.Got) || len(lr.Compared) == 0 {
				t.Fatalf("lin result %+v", lr)
			}
			if reflect.DeepEqual(lr.Got, lr.Seq[0]) || reflect.DeepEqual(lr.Got, lr.Seq[1]) {
				t.Errorf("the outcome %v is that of a sequential order %v", lr.Got, lr.Seq)
			}
		})
	}
}

func TestLinearizableStaysSilent(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"one critical section", linRequest("SafeTally", []Call{{Fn: "Inc"}, {Fn: "Inc"}}, Call{Fn: "Value"})},
		{"clock and map order", linRequest("Clocked", []Call{{Fn: "Touch", Args: []Value{lit("a")}},
			{Fn: "Touch", Args: []Value{lit("b")}}}, Call{Fn: "Keys"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Test.Iters = 200
			res, _ := do(t, linRegistry(), tc.req)
			if res.Status != StatusOK || res.LinOff != "" {
				t.Fatalf("status %s (%s), oracle off: %q; want ok with the oracle on", res.Status, res.Msg, res.LinOff)
			}
		})
	}
}

// TestLinRuns checks that the sequential orders run once before the
// iterations unless asked for more: an outcome that varies between runs
// (a clock) is then found to vary only when a concurrent outcome does
// not match, which the result says (LinVaried), so that the driver asks
// for two runs; with two, it is found before the iterations.
func TestLinRuns(t *testing.T) {
	clocked := linRequest("Clocked", []Call{{Fn: "Touch", Args: []Value{lit("a")}}, {Fn: "Touch", Args: []Value{lit("b")}}})
	safe := linRequest("SafeTally", []Call{{Fn: "Inc"}, {Fn: "Inc"}}, Call{Fn: "Value"})
	for _, tc := range []struct {
		name   string
		req    Request
		runs   int
		varied bool
	}{
		{"a clock, one run", clocked, 1, true},
		{"a clock, two runs", clocked, 2, false},
		{"no clock, one run", safe, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lin := *tc.req.Lin
			lin.Runs = tc.runs
			tc.req.Lin = &lin
			res, _ := do(t, linRegistry(), tc.req)
			if res.Status != StatusOK || res.LinOff != "" || res.LinVaried != tc.varied {
				t.Errorf("status %s (%s), oracle off %q, varied %v; want ok, on, varied %v", res.Status, res.Msg, res.LinOff,
					res.LinVaried, tc.varied)
			}
		})
	}
}

// TestLinOff checks that a test whose sequential order blocks runs
// without the oracle and says why.
func TestLinOff(t *testing.T) {
	req := Request{Op: OpRun, Test: Test{Type: "Counter", Objects: []Call{{}}, Suffix: []Call{{Fn: "Get"}, {Fn: "Twice"}},
		Iters: 1}, Lin: &Lin{}, Watchdog: 50 * time.Millisecond}
	res, _ := do(t, testRegistry(), req)
	if res.LinOff == "" || !strings.Contains(res.LinOff, "Twice does not return") {
		t.Errorf("oracle off: %q, want Twice named", res.LinOff)
	}
}

func TestShow(t *testing.T) {
	var nilErr error
	var p *int
	n := 3
	for _, tc := range []struct {
		v    interface{}
		want string
	}{
		{3, "3"}, {"x", "x"}, {[]int{2, 1}, "[1 2]"}, {map[string]int{"b": 2, "a": 1}, "map[a:1 b:2]"},
		{&n, "non-nil"}, {p, "nil"}, {Stats{1, 2, 3}, "{1 2 3}"}, {make(chan int), "non-nil"},
		{[]string{"b", "a"}, "[a b]"}, {[]int(nil), "[]"}, {[2]int{2, 1}, "[1 2]"},
	} {
		if got := show(reflect.ValueOf(tc.v)); got != tc.want {
			t.Errorf("show(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
	if got := show(reflect.ValueOf(&nilErr).Elem()); got != "nil" {
		t.Errorf("show(nil error) = %q", got)
	}
	err := reflect.ValueOf(&nilErr).Elem()
	err.Set(reflect.ValueOf(errString("no")))
	if got := show(err); got != "error" {
		t.Errorf("show(error) = %q", got)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// Mailer delivers in the background: what Sent shows after two Sends
// depends on how far its goroutines got, not on the calls' order.
type Mailer struct {
	mu   sync.Mutex
	sent int
}

func (m *Mailer) Send() {
	go func() {
		time.Sleep(3 * time.Millisecond)
		m.mu.Lock()
		m.sent++
		m.mu.Unlock()
	}()
}

func (m *Mailer) Sent() int { m.mu.Lock(); defer m.mu.Unlock(); return m.sent }

// Queue stops asynchronously: Stop leaves the stopping to a goroutine
// (done a little later), and Put counts only what it takes before the
// queue is stopped.
type Queue struct {
	mu      sync.Mutex
	stopped bool
	n       int
}

func (q *Queue) Stop() {
	go func() {
		for i := 0; i < 10; i++ {
			runtime.Gosched()
		}
		q.mu.Lock()
		q.stopped = true
		q.mu.Unlock()
	}()
}

func (q *Queue) Put() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.stopped {
		q.n++
	}
}

func (q *Queue) Len() int { q.mu.Lock(); defer q.mu.Unlock(); return q.n }

// TestLinPrefixAsync checks that the suffixes of a concurrent iteration
// start, as those of the sequential orders do, once what the prefix left
// to goroutines is done: a Put racing with the stop a prefix Stop left
// running is no outcome of the Put and the Len under test.
func TestLinPrefixAsync(t *testing.T) {
	r := NewRegistry()
	r.RegisterTypeOf("Queue", (*Queue)(nil))
	req := linRequest("Queue", []Call{{Fn: "Put"}, {Fn: "Len"}}, Call{Fn: "Len"})
	req.Test.Prefix = []Call{{Fn: "Stop"}}
	req.Test.Iters = 300
	res, _ := do(t, r, req)
	if res.Status != StatusOK || res.LinOff != "" {
		t.Errorf("status %s (%s), oracle off %q; want ok with the oracle on", res.Status, res.Msg, res.LinOff)
	}
}

// TestLinAsync checks that calls leaving goroutines running are not
// judged: the oracle is off, and says why.
func TestLinAsync(t *testing.T) {
	r := NewRegistry()
	r.RegisterTypeOf("Mailer", (*Mailer)(nil))
	req := linRequest("Mailer", []Call{{Fn: "Send"}, {Fn: "Send"}}, Call{Fn: "Sent"})
	res, _ := do(t, r, req)
	if res.Status != StatusOK || !strings.Contains(res.LinOff, "asynchronous") {
		t.Errorf("status %s (%s), oracle off: %q; want ok with the oracle off as asynchronous", res.Status, res.Msg, res.LinOff)
	}
}

// rareCalls counts the calls of Rare.Count in the process.
var rareCalls atomic.Int64

// Rare's observer gives another value once in 37 calls, whatever the
// order of the suffix calls (which do nothing): something sequential
// runs rarely show, like a Pop in the prefix that takes one key of a
// small map in eight.
type Rare struct{}

func (*Rare) Nop() {}

func (*Rare) Count() int {
	if rareCalls.Add(1)%37 == 0 {
		return 3
	}
	return 2
}

// TestLinRareVariation checks that an outcome that differs from the
// sequential ones in a part that rarely varies sequentially is not
// reported: the 37th call of the observer happens in a concurrent
// iteration, and the sequential runs made at the mismatch with pauses
// (the 38th to the 55th) do not vary; the runs without pauses that follow
// do.
func TestLinRareVariation(t *testing.T) {
	rareCalls.Store(0)
	req := linRequest("Rare", []Call{{Fn: "Nop"}, {Fn: "Nop"}}, Call{Fn: "Count"})
	res, _ := do(t, linRegistry(), req)
	if res.Status != StatusOK || res.LinOff != "" || !res.LinVaried {
		t.Errorf("status %s (%s), oracle off %q, varied %v; want ok, on, varied", res.Status, res.Msg, res.LinOff, res.LinVaried)
	}
	if n := rareCalls.Load(); n < 37 {
		t.Fatalf("Count called %d times: the iterations did not reach its 37th call", n)
	}
}

// TestBrief checks that outcomes in messages are escaped and cut.
func TestBrief(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"7", "7"},
		{"\x00 0", `\x00 0`},
		{"a\nb", `a\nb`},
		{strings.Repeat("ab", 40), strings.Repeat("ab", 30) + "…"},
		{strings.Repeat("é", 61), strings.Repeat("é", 60) + "…"},
	} {
		if got := Brief(tc.in); got != tc.want {
			t.Errorf("Brief(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
