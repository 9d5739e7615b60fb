package driver

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The lines of a race report that begin an access's stack and a
// goroutine's creation stack.
var (
	raceByRE     = regexp.MustCompile(`^(?:Previous )?\w[\w ]* at 0x[0-9a-f]+ by goroutine (\d+):$`)
	raceCreateRE = regexp.MustCompile(`^Goroutine (\d+) \((?:running|finished)\) created at:$`)
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
func raceCalls(report, prefix string) (within, sequential string) {
	stacks := map[string][]string{} // "access N" or "created G" → function lines
	var accesses []string           // the goroutines of the accesses, in order
	cur := ""
	for _, l := range strings.Split(report, "\n") {
		switch {
		case raceByRE.MatchString(l):
			cur = "access " + strconv.Itoa(len(accesses))
			accesses = append(accesses, raceByRE.FindStringSubmatch(l)[1])
		case raceCreateRE.MatchString(l):
			cur = "created " + raceCreateRE.FindStringSubmatch(l)[1]
		case strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "    "):
			if cur != "" {
				stacks[cur] = append(stacks[cur], strings.TrimSpace(l))
			}
		case l == "" || !strings.HasPrefix(l, " "):
			cur = ""
		}
	}
	if len(accesses) < 2 {
		return "", ""
	}
	var calls [2]testCall
	for i := range calls {
		c, ok := callOf(stacks["access "+strconv.Itoa(i)], prefix)
		if !ok {
			c, ok = callOf(stacks["created "+accesses[i]], prefix)
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
	if callOfDirect(stacks["access 0"], prefix) {
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

// callOf returns the call of a test that a stack's function lines run
// in: the harness frames below the harness's invoke say how it runs,
// the frame above it which method it calls.
func callOf(funcs []string, prefix string) (testCall, bool) {
	inv := slices.IndexFunc(funcs, func(fn string) bool { return strings.Contains(fn, "."+prefix+"invoke(") })
	if inv < 0 {
		return testCall{}, false
	}
	var c testCall
	for _, fn := range funcs[:inv] {
		if !strings.HasPrefix(fn, "runtime.") && !strings.HasPrefix(fn, "reflect.") {
			c.method = methodName(fn) // the last user frame before invoke
		}
	}
	for _, fn := range funcs[inv+1:] {
		switch {
		case strings.Contains(fn, "."+prefix+"suffixA("):
			c.run = runA
		case strings.Contains(fn, "."+prefix+"suffixB("):
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

// callOfDirect reports whether a stack is a call's own goroutine (it
// runs the harness's invoke), not one the call started.
func callOfDirect(funcs []string, prefix string) bool {
	return slices.ContainsFunc(funcs, func(fn string) bool { return strings.Contains(fn, "."+prefix+"invoke(") })
}

// methodName returns the name of the function or method of a stack's
// function line: "pkg.(*T).M(...)" → "M".
func methodName(fn string) string {
	fn, _, _ = strings.Cut(fn, "(...)")
	fn = strings.TrimSuffix(fn, "()")
	if i := strings.LastIndex(fn, "."); i >= 0 {
		fn = fn[i+1:]
	}
	return fn
}
