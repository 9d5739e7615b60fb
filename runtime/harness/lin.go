package harness

import (
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The linearizability oracle. Every access of a type may be locked or
// atomic and two calls may still break it: a check and an act, or two
// reads of a snapshot, in separate critical sections. Nothing races and
// nothing panics, but the outcome of the two calls is one no sequential
// order gives: a lost update, two callers handed the same ID, a Stats
// whose parts do not add up.
//
// With Request.Lin set, a concurrent test first runs both sequential
// orders of its suffixes on fresh objects, Lin.Runs times each, and
// records their outcome: what each suffix call returned, then what the
// observer calls (read-only methods called on the shared objects after
// the suffixes) return. The parts of an outcome that differ between runs
// of one order (a clock, a random number, map order, a process-wide
// counter) are left out of every comparison. After each concurrent
// iteration the outcome is taken the same way and must equal that of one
// of the two orders (sequential runs pause before each call and before
// the outcome is taken, see LinPauses, so that work a call leaves to
// goroutines of its own, and what expires with time, show as varying
// too); if not, the sequential orders are run again
// moreRuns times each, to leave out what only rarely differs, and an
// outcome that still matches neither ends the test with
// StatusNotLinearizable.
//
// Values are compared as show renders them, which the reproducer's
// depconShow repeats.

// moreRuns is how many times more each sequential order is run before
// a mismatch is reported, at least: until each pause of LinPauses was
// tried, as the reproducer does.
const moreRuns = 8

// linMaxSetup bounds the set-up (objects, prefix, arguments) of a test
// whose outcomes are compared: the sequential orders make two more (four
// when Lin.Runs is 2), and up to twenty before a mismatch is reported.
const linMaxSetup = 50 * time.Millisecond

// A reference is the outcome of the two sequential orders of a test.
type reference struct {
	labels []string
	// groups gives the group of each part of the outcome: 0 for the
	// results of the suffix calls, k for those of observer call k. Each
	// group must be the outcome of one of the orders, not necessarily the
	// same for all: the suffix calls' results together (two callers handed
	// the same ID), and what each observer returns (a lost update, a
	// snapshot whose parts do not add up), but not two observers of
	// independent state (two atomic counters, each exact).
	groups []int
	// first holds the first outcome of each order (suffix 0 first,
	// suffix 1 first); stable says which parts were equal in every run of
	// both orders.
	first  [2][]string
	stable []bool
	runs   int
}

// matches reports whether each group of outcome got equals, in its
// stable parts, that of one of the sequential orders.
func (ref *reference) matches(got []string) bool {
	for g := 0; g <= ref.groups[len(ref.groups)-1]; g++ {
		if !ref.groupMatches(got, g) {
			return false
		}
	}
	return true
}

// groupMatches reports whether group g of got equals, in its stable
// parts, that of one of the sequential orders.
func (ref *reference) groupMatches(got []string, g int) bool {
	for _, want := range ref.first {
		ok := true
		for i := range want {
			if ref.groups[i] == g && ref.stable[i] && got[i] != want[i] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// references runs both sequential orders runs more times each, adding
// them to ref (a new reference when nil). It returns why the oracle
// cannot be used for this test when a run fails: an order that panics,
// blocks or fails to set up has no outcome to compare with.
func (x *execution) references(ref *reference, runs int, paused bool) (*reference, string) {
	if ref == nil {
		ref = &reference{}
	}
	for n := 0; n < runs; n++ {
		var pause time.Duration
		if paused {
			pause = LinPauses[ref.runs%len(LinPauses)]
		}
		for o := 0; o < 2; o++ {
			labels, groups, got, why := x.sequentialOutcome(o, pause)
			if why != "" {
				return nil, why
			}
			if ref.first[o] == nil {
				ref.first[o] = got
				if ref.labels == nil {
					ref.labels, ref.groups = labels, groups
					ref.stable = make([]bool, len(got))
					for i := range ref.stable {
						ref.stable[i] = true
					}
				}
				if len(got) != len(ref.stable) {
					return nil, "the two orders' outcomes differ in shape"
				}
				continue
			}
			if len(got) != len(ref.stable) {
				return nil, "the outcomes of one order differ in shape"
			}
			for i := range got {
				if got[i] != ref.first[o][i] {
					ref.stable[i] = false
				}
			}
		}
		ref.runs++
	}
	return ref, ""
}

// LinRareRuns is how many more times, at most, each sequential order runs
// without pauses before an outcome that matches neither is reported (after
// the runs with LinPauses), stopping as soon as the outcome matches: a
// part of the outcome that differs in one run of eight sequentially shows
// in those 40 runs or more but for a chance of 5 in 1,000. The reproducer
// runs them within the same bounds, all of them before its iterations
// (runtime/driver/internal/repro/lin.go).
const LinRareRuns = 30

// LinRareTime bounds the time of those runs, past the first
// LinRareLeast: objects slow to build (a signing key each) would make
// every real violation cost seconds.
const (
	LinRareTime  = 300 * time.Millisecond
	LinRareLeast = 8
)

// LinPauses are how long the sequential runs of an order wait before
// each call and before the outcome is taken, by run: every other run
// waits, and longer as runs go on. What a call leaves to goroutines of
// its own (a delivery, an eviction, a flush) may then be done or not,
// and what expires with time (an entry with a TTL of a few milliseconds,
// which a concurrent iteration slowed by the race detector or held by a
// schedule outlives) may have expired, and the parts of the outcome they
// change vary. The first run does not wait, the second waits 2ms; the
// longer waits only come with the runs made before a mismatch is
// reported. The
// reproducer waits the same way (runtime/driver/internal/repro/lin.go).
var LinPauses = []time.Duration{0, 2 * time.Millisecond, 0, 5 * time.Millisecond, 0, 20 * time.Millisecond,
	0, 50 * time.Millisecond, 0, 100 * time.Millisecond}

// sequentialOutcome sets up fresh objects, runs the suffix calls in
// order o (0: suffix 0 first), pausing before each call and before the
// outcome is taken, and returns the outcome, or why there is none.
func (x *execution) sequentialOutcome(o int, pause time.Duration) (labels []string, groups []int, got []string, why string) {
	p, res := x.prepareNext()
	if res != nil {
		return nil, nil, nil, "a sequential order could not be set up: " + res.Msg
	}
	var outs [2]outcome
	expect := x.settled
	if expect < 0 {
		expect = p.base
	}
	before := settledGoroutines(expect)
	for k := 0; k < 2; k++ {
		g := k
		if o == 1 {
			g = 1 - k
		}
		time.Sleep(pause)
		fn, in := p.fns[g], p.ins[g]
		oc, res := x.step(fmt.Sprintf("suffix %d", g), func() outcome { return invoke(fn, in) })
		if res != nil {
			return nil, nil, nil, fmt.Sprintf("%s does not return when called after the prefix", x.req.Test.Suffix[g].Fn)
		}
		if oc.panic != "" {
			return nil, nil, nil, fmt.Sprintf("%s panics sequentially: %s", x.req.Test.Suffix[g].Fn, oc.panic)
		}
		outs[g] = oc
	}
	time.Sleep(pause)
	after := settledGoroutines(before)
	x.settled = after
	if after > before {
		// The calls left goroutines running (workers, deliveries): when
		// their effects show is not the calls' order.
		return nil, nil, nil, fmt.Sprintf("the calls leave %d goroutines running: their effects are asynchronous", after-before)
	}
	return x.observe(p, outs)
}

// prefixDone waits a little for the goroutines the prefix of p started
// to end, and reports whether they did: the number of goroutines is back
// to what it was before the prefix ran.
func prefixDone(p *prepared) bool {
	for i := 0; i < 20; i++ {
		if runtime.NumGoroutine() <= p.base {
			return true
		}
		if i < 3 {
			runtime.Gosched() // the prefix's step goroutines exiting
		} else {
			time.Sleep(100 * time.Microsecond)
		}
	}
	return false
}

// settledGoroutines returns the number of goroutines once it has stayed
// the same over three samples, or as soon as it is expect after a yield
// (expect < 0: no expectation). The expectation is the count before the
// sequential calls, which they leave as they found it unless they leave
// work running: then no sample need wait. The samples wait for
// goroutines that are ending: the harness's own step goroutines, the two
// of a concurrent iteration, what a call left behind. Each sample first
// yields the processor, so that a goroutine that only has to return gets
// to run even on a loaded machine, where it may otherwise wait longer
// than the pause between two samples.
func settledGoroutines(expect int) int {
	for i := 0; i < 3 && expect >= 0; i++ {
		runtime.Gosched()
		if runtime.NumGoroutine() == expect {
			return expect
		}
	}
	n := runtime.NumGoroutine()
	same := 0
	for i := 0; i < 40 && same < 3; i++ {
		runtime.Gosched()
		time.Sleep(100 * time.Microsecond)
		m := runtime.NumGoroutine()
		if m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// observe returns the outcome of an iteration whose suffix calls ended
// with outs: their results, then those of the observer calls made on the
// objects now, with a label and a group (see reference) for each part.
func (x *execution) observe(p *prepared, outs [2]outcome) (labels []string, groups []int, got []string, why string) {
	lin := x.req.Lin
	for g := 0; g < 2; g++ {
		if lin.SkipResults[g] {
			continue
		}
		c := x.req.Test.Suffix[g]
		for i, r := range outs[g].results {
			labels = append(labels, fmt.Sprintf("%c.%s (goroutine %d) result %d", 'a'+c.Recv, c.Fn, g+1, i))
			groups = append(groups, 0)
			got = append(got, show(r))
		}
	}
	for k, c := range lin.Observers {
		o, res := x.step("observer", x.caller(c, &p.sc))
		if res != nil {
			return nil, nil, nil, fmt.Sprintf("observer %s does not return", c.Fn)
		}
		if o.panic != "" {
			return nil, nil, nil, fmt.Sprintf("observer %s panics: %s", c.Fn, o.panic)
		}
		if o.err != nil && len(o.results) == 0 {
			return nil, nil, nil, fmt.Sprintf("observer %s cannot be called: %v", c.Fn, o.err)
		}
		for i, r := range o.results {
			labels = append(labels, fmt.Sprintf("%c.%s() result %d", 'a'+c.Recv, c.Fn, i))
			groups = append(groups, k+1)
			got = append(got, show(r))
		}
	}
	// A sentinel part, always equal, so that no group list is empty.
	labels = append(labels, "")
	groups = append(groups, len(lin.Observers)+1)
	got = append(got, "")
	return labels, groups, got, ""
}

// checkLin checks the outcome of a concurrent iteration against the
// sequential orders. It returns the StatusNotLinearizable result, or nil;
// off is set when the oracle cannot be used from now on.
func (x *execution) checkLin(p *prepared, outs [2]outcome) (res *Message, off string) {
	// As after the sequential orders: what the calls left to finish
	// (a worker's task) finishes before the outcome is taken. The two
	// goroutines that made the calls may still be exiting: they are let
	// go first; more goroutines than before the iterations is work left
	// behind, waited for.
	for i := 0; i < 3 && runtime.NumGoroutine() > x.linBase; i++ {
		runtime.Gosched()
	}
	if runtime.NumGoroutine() > x.linBase {
		settledGoroutines(x.linBase)
	}
	_, _, got, why := x.observe(p, outs)
	if why != "" {
		return nil, why
	}
	if len(got) != len(x.ref.stable) {
		return nil, "the concurrent outcome differs in shape from the sequential ones"
	}
	if x.ref.matches(got) {
		return nil, ""
	}
	// Rule out parts that only rarely differ sequentially.
	more := moreRuns
	if n := len(LinPauses) - x.ref.runs; n > more {
		more = n
	}
	ref, why := x.references(x.ref, more, true)
	if why == "" && !ref.matches(got) {
		// A part that differs in few sequential runs (a map order that
		// favours one key: a Pop in the prefix that removes the other
		// one time in eight) must show before the outcome is called
		// wrong.
		start := time.Now()
		for n := 0; n < LinRareRuns && why == "" && !ref.matches(got); n++ {
			if n >= LinRareLeast && time.Since(start) > LinRareTime {
				break
			}
			ref, why = x.references(ref, 1, false)
		}
	}
	if why != "" {
		return nil, why
	}
	x.ref = ref
	if ref.matches(got) {
		x.linVaried = true
		return nil, ""
	}
	n := len(got) - 1 // without the sentinel
	lr := &LinResult{Got: got[:n], Seq: [2][]string{ref.first[0][:n], ref.first[1][:n]}, Labels: ref.labels[:n],
		Groups: ref.groups[:n]}
	for i := 0; i < n; i++ {
		if ref.stable[i] {
			lr.Compared = append(lr.Compared, i)
		}
		if !ref.groupMatches(got, ref.groups[i]) && !containsInt(lr.Failed, ref.groups[i]) {
			lr.Failed = append(lr.Failed, ref.groups[i])
		}
	}
	return &Message{Status: StatusNotLinearizable, Goroutine: -1, Step: "suffix", Msg: lr.describe(x.req.Test), Lin: lr}, ""
}

// describe says in one line how the outcome matches neither order.
func (lr *LinResult) describe(t Test) string {
	var parts []string
	for _, i := range lr.Compared {
		if containsInt(lr.Failed, lr.Groups[i]) && (lr.Got[i] != lr.Seq[0][i] || lr.Got[i] != lr.Seq[1][i]) {
			parts = append(parts, fmt.Sprintf("%s is %s (sequentially %s | %s)", lr.Labels[i], Brief(lr.Got[i]),
				Brief(lr.Seq[0][i]), Brief(lr.Seq[1][i])))
		}
	}
	names := make([]string, 0, 2)
	for _, c := range t.Suffix {
		names = append(names, fmt.Sprintf("%c.%s", 'a'+c.Recv, c.Fn))
	}
	return fmt.Sprintf("%s ∥ %s: an outcome no sequential order gives: %s", names[0], names[1], strings.Join(parts, "; "))
}

// show renders a value for comparison: "error" for a non-nil error (its
// text often holds what varies, and two errors of different texts are
// rarely a different outcome), nil or non-nil for a pointer, channel,
// function or unsafe pointer (their addresses are no outcome), the
// elements of a slice or array sorted (the order of what a map or a set
// holds is no outcome either), and fmt's %v for the others. A method of
// the value that panics while it is printed gives "panic: ...".
func show(v reflect.Value) (s string) {
	defer func() {
		if p := recover(); p != nil {
			s = fmt.Sprintf("panic: %v", p)
		}
	}()
	if !v.IsValid() {
		return "nil"
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "nil"
		}
		v = v.Elem()
	}
	if v.Type().Implements(errorType) && v.CanInterface() {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Map || v.Kind() == reflect.Slice) && v.IsNil() {
			return "nil"
		}
		return "error"
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if v.IsNil() {
			return "nil"
		}
		return "non-nil"
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return "[]"
		}
		elems := make([]string, v.Len())
		for i := range elems {
			elems[i] = show(v.Index(i))
		}
		sort.Strings(elems)
		return "[" + strings.Join(elems, " ") + "]"
	}
	if !v.CanInterface() {
		return "?"
	}
	return fmt.Sprintf("%v", v.Interface())
}

// maxShown is how many characters of an outcome a message shows.
const maxShown = 60

// Brief renders an outcome for a message: control characters escaped
// (a NUL, a newline), and cut after maxShown characters, with "…".
func Brief(s string) string {
	r := []rune(s)
	cut := len(r) > maxShown
	if cut {
		s = string(r[:maxShown])
	}
	if strings.IndexFunc(s, func(c rune) bool { return c < ' ' || c == 0x7f }) >= 0 {
		q := strconv.Quote(s)
		s = q[1 : len(q)-1]
	}
	if cut {
		s += "…"
	}
	return s
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// caller returns a function making call c in scope sc.
func (x *execution) caller(c Call, sc *scope) func() outcome {
	return func() outcome { return x.callMethod(c, sc) }
}
