package harness

import (
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// Tracing (OpTrace) finds the prefix calls that matter to a pair: a
// prefix call is kept only if it changes which hooks of the rewritten
// package the suffix calls reach when they run after it, sequentially
// (the sites stand for the branches that touch shared state or locks).
// The suffix is run after the empty prefix, then after each prefix call
// added in turn to those kept so far; a call whose addition leaves the
// sites the same is dropped.

// A tracer records the sites reached by the goroutine of the suffix call
// being traced (made through invokeAs, see suffixOf).
type tracer struct {
	on    int32 // 1 while a suffix call is traced, atomically
	cur   int   // the suffix call traced
	sites [2]map[int]bool
}

func newTracer() *tracer {
	t := &tracer{}
	t.reset()
	return t
}

func (t *tracer) reset() { t.sites = [2]map[int]bool{{}, {}} }

// begin and end bracket suffix call i, in the goroutine that makes it.
func (t *tracer) begin(i int) {
	t.cur = i
	atomic.StoreInt32(&t.on, 1)
}

func (t *tracer) end() { atomic.StoreInt32(&t.on, 0) }

func (t *tracer) hook(kind, site int) {
	if kind == evWait || kind == evWaited {
		return // whether a lock was free is not a branch of the code
	}
	if atomic.LoadInt32(&t.on) == 1 && suffixOf() == t.cur {
		t.sites[t.cur][site] = true
	}
}

// reached returns the sites reached, per suffix call, sorted.
func (t *tracer) reached() [2][]int {
	var out [2][]int
	for i, m := range t.sites {
		for id := range m {
			out[i] = append(out[i], id)
		}
		sort.Ints(out[i])
	}
	return out
}

// union returns the sorted union of the sorted sets a and b. (A package
// under test may redeclare copy: the harness does without it.)
func union(a, b []int) []int {
	var out []int
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// signature renders the sites reached, per suffix call.
func (t *tracer) signature() string {
	var parts []string
	for _, m := range t.sites {
		var ids []int
		for id := range m {
			ids = append(ids, id)
		}
		sort.Ints(ids)
		parts = append(parts, fmt.Sprint(ids))
	}
	return strings.Join(parts, "|")
}

// trace answers OpTrace: Kept lists the prefix calls kept, Reached the
// sites each suffix call reached after them, in either order. Past
// Request.MaxTime, the calls not yet traced are kept.
func (x *execution) trace() Message {
	tr := newTracer()
	setSink(tr)
	defer setSink(nil)
	full := x.req.Test.Prefix
	var kept []int
	sig, res := x.traceWith(tr, nil)
	if res != nil {
		return *res
	}
	reached := tr.reached()
	began := time.Now()
	for i := range full {
		if x.req.MaxTime > 0 && time.Since(began) > x.req.MaxTime {
			// Out of time (slow objects): the calls not traced are kept.
			for j := i; j < len(full); j++ {
				kept = append(kept, j)
			}
			break
		}
		cand := append(append([]int(nil), kept...), i)
		s, res := x.traceWith(tr, cand)
		if res != nil {
			return *res
		}
		if s != sig {
			kept, sig, reached = cand, s, tr.reached()
		}
	}
	if len(x.req.Test.Suffix) == 2 {
		// Each call's reach when it runs first too: an order that holds
		// the second call before the first ran needs the sites the
		// second reaches ahead of it.
		sw := &execution{r: x.r, req: x.req, send: x.send, watchdog: x.watchdog}
		sw.req.Test.Prefix = nil
		for _, i := range kept {
			sw.req.Test.Prefix = append(sw.req.Test.Prefix, x.req.Test.Prefix[i])
		}
		sw.req.Test.Suffix = []Call{x.req.Test.Suffix[1], x.req.Test.Suffix[0]}
		tr.reset()
		switch res := sw.seqWith(tr); res.Status {
		case StatusOK:
			r := tr.reached()
			reached[0], reached[1] = union(reached[0], r[1]), union(reached[1], r[0])
		case StatusBlocked, StatusRunning:
			// A call left blocked or running (a Wait called before the
			// Add it waits for): the driver replaces the child.
			res.Dropped = nil
			return res
		}
	}
	return Message{Status: StatusOK, Goroutine: -1, Kept: kept, Reached: reached}
}

// traceWith runs the suffix calls sequentially after the prefix calls idx
// and returns the sites they reached.
func (x *execution) traceWith(tr *tracer, idx []int) (string, *Message) {
	sub := &execution{r: x.r, req: x.req, send: x.send, watchdog: x.watchdog}
	sub.req.Test.Prefix = nil
	for _, i := range idx {
		sub.req.Test.Prefix = append(sub.req.Test.Prefix, x.req.Test.Prefix[i])
	}
	tr.reset()
	res := sub.seqWith(tr)
	if res.Status != StatusOK {
		return "", &res
	}
	return tr.signature(), nil
}
