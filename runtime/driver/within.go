package driver

import (
	"slices"
	"strings"

	"github.com/depcon/depcon/runtime/stacks"
)

// raceCalls attributes the two accesses of a race report to the calls
// of the test they ran in. An access runs in a call when it is made by
// the call's goroutine, or by a goroutine the call started (its creation
// stack shows the call); the harness runs the two concurrent calls
// through suffixA and suffixB and every sequential call (of the prefix,
// of the orders the linearizability oracle runs) in a goroutine of its
// own (step), which the stacks show. It returns
//   - within, the method whose single call both accesses belong to: a
//     goroutine it started writing what it reads after a timeout, or
//     a sequential call of it; the defect is that method's alone,
//     whatever it ran with;
//   - or sequential, "P1, then P2": two different sequential calls
//     (a goroutine the first left running races with the second), the
//     set-up's defect, not the pair's;
//
// or nothing when an access's call cannot be told (a goroutine started
// by a goroutine the call started) or the accesses are in the two
// concurrent calls.
func raceCalls(accesses []stacks.Stack, prefix string) (within, sequential string) {
	if len(accesses) < 2 {
		return "", ""
	}
	var calls [2]testCall
	for i := range calls {
		c, ok := callOf(accesses[i].Frames, prefix)
		if !ok {
			c, ok = callOf(accesses[i].Created, prefix)
		}
		if !ok {
			return "", ""
		}
		calls[i] = c
	}
	a, b := calls[0], calls[1]
	switch {
	case a.run != b.run || a.run != runSeq && a.method != b.method:
		return "", "" // the two concurrent calls (or a concurrent and a sequential one)
	case a.method == b.method:
		return a.method, ""
	}
	// Sequential calls run in order: the goroutine left running is the
	// one created earlier, by the first call.
	first, second := a.method, b.method
	if runsCall(accesses[0], prefix) {
		first, second = second, first
	}
	return "", first + ", then " + second
}

// How a call of a test runs.
const (
	runA   = "a"   // the first concurrent call
	runB   = "b"   // the second
	runSeq = "seq" // a sequential call
)

// A testCall is the call of a test a stack runs in.
type testCall struct {
	run    string // runA, runB, runSeq
	method string // the method called
}

// callOf returns the call of a test that a stack's frames run in: the
// harness frames below the harness's invoke say how it runs, the frame
// above it which method it calls.
func callOf(frames []stacks.Frame, prefix string) (testCall, bool) {
	inv := slices.IndexFunc(frames, func(f stacks.Frame) bool { return isInvokeFrame(f, prefix) })
	if inv < 0 {
		return testCall{}, false
	}
	var c testCall
	for _, f := range frames[:inv] {
		if !strings.HasPrefix(f.Func, "runtime.") && !strings.HasPrefix(f.Func, "reflect.") {
			c.method = methodName(f.Func) // the last user frame before invoke
		}
	}
	for _, f := range frames[inv+1:] {
		fn := f.Func
		switch {
		case strings.HasSuffix(fn, "."+prefix+"suffixA"):
			c.run = runA
		case strings.HasSuffix(fn, "."+prefix+"suffixB"):
			c.run = runB
		case strings.Contains(fn, prefix+"execution).step."):
			c.run = runSeq
		default:
			continue
		}
		break
	}
	return c, c.run != "" && c.method != ""
}

// methodName returns the name of the function or method of a frame:
// "pkg.(*T).M" → "M".
func methodName(fn string) string {
	if i := strings.LastIndex(fn, "."); i >= 0 {
		fn = fn[i+1:]
	}
	return fn
}

// inOwnGoroutine reports whether one of the two accesses of a race was
// made by a goroutine that the code under test started, rather than by
// a call of the test.
func inOwnGoroutine(accesses []stacks.Stack, prefix string) bool {
	for _, a := range accesses[:min(2, len(accesses))] {
		if _, ok := callOf(a.Frames, prefix); !ok {
			return true
		}
	}
	return false
}
