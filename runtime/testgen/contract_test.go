package testgen

import (
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// TestContract checks the phrases of method documentation that forbid
// concurrent calls, and that ordinary documentation forbids nothing.
func TestContract(t *testing.T) {
	docs := map[string]string{
		"SetLimit": "SetLimit limits the number of active goroutines.\n\nThe limit must not be modified while any goroutines in the group are active.",
		"Go":       "Go calls the given function in a new goroutine.\n\nThe first call to Go must happen before a Wait.",
		"Wait":     "Wait blocks until all function calls from the Go method have returned.",
		"Next":     "Next advances the iterator. It is not safe for concurrent use.",
		"Reset":    "Reset must not be called\nconcurrently with other methods.",
		"Get":      "Get returns the value. It is safe for concurrent use.",
		"Put":      "Put stores a value; it must be called before Close returns, or it panics.",
	}
	c := readContract(docs, "", "", []string{"SetLimit", "Go", "Wait", "Next", "Reset", "Get", "Put"})
	for _, tc := range []struct {
		m1, m2 string
		ok     bool
	}{
		{"SetLimit", "Go", false},
		{"Go", "Wait", false},
		{"Wait", "Go", false},
		{"Go", "Go", true},
		{"Next", "Get", false},
		{"Reset", "Get", false},
		{"Get", "Wait", true},
		{"Get", "Get", true},
		{"Put", "Get", true}, // "before Close": Close is not a method here
	} {
		if got := c.allows(tc.m1, tc.m2); got != tc.ok {
			t.Errorf("allows(%s, %s) = %v, want %v", tc.m1, tc.m2, got, tc.ok)
		}
	}
	if (*contract)(nil).allows("A", "B") != true {
		t.Error("no documentation must allow everything")
	}
}

// TestContractExtends checks that "Go must happen before a Wait" binds
// the methods that change the same state as Go, and that the calls of a
// method that must not run concurrently go first in a prefix.
func TestContractExtends(t *testing.T) {
	docs := map[string]string{
		"Go":       "The first call to Go must happen before a Wait.",
		"SetLimit": "The limit must not be modified while any goroutines in the group are active.",
	}
	plan := &deps.TypePlan{
		Methods: []deps.Method{{Name: "Go", Writes: 2}, {Name: "TryGo", Writes: 2}, {Name: "Wait", Writes: 0},
			{Name: "Len", Writes: 0}, {Name: "SetLimit", Writes: 1}},
		Pairs: []deps.Pair{
			{M1: "Go", M2: "TryGo", Deps: []string{deps.DepPC}},
			{M1: "Go", M2: "Len", Deps: []string{deps.DepPC}},
			{M1: "TryGo", M2: "Wait", Deps: []string{deps.DepPC}},
		},
	}
	c := readContract(docs, "", "", []string{"Go", "TryGo", "Wait", "Len", "SetLimit"})
	c.extend(plan)
	for _, tc := range []struct {
		m1, m2 string
		ok     bool
	}{
		{"TryGo", "Wait", false}, // writes what Go writes
		{"Go", "Wait", false},
		{"Len", "Wait", true}, // reads only
		{"Go", "TryGo", true},
	} {
		if got := c.allows(tc.m1, tc.m2); got != tc.ok {
			t.Errorf("allows(%s, %s) = %v, want %v", tc.m1, tc.m2, got, tc.ok)
		}
	}
	calls := c.order([]harness.Call{{Fn: "Go"}, {Fn: "Len"}, {Fn: "SetLimit"}, {Fn: "TryGo"}})
	if calls[0].Fn != "SetLimit" || calls[1].Fn != "Go" || calls[3].Fn != "TryGo" {
		t.Errorf("prefix order %v, want SetLimit first, the others in their order", calls)
	}
}

// TestSetUpInPrefixesOnly checks that a set-up method (deps.Method.SetUp)
// is in no concurrent pair, and runs in prefixes, before the other calls.
func TestSetUpInPrefixesOnly(t *testing.T) {
	plan := mapPlan()
	for i := range plan.Methods {
		if plan.Methods[i].Name == "Put" {
			plan.Methods[i].SetUp = "it returns its receiver (a fluent setter)"
		}
	}
	s, err := NewSubject(load(t), plan)
	if err != nil {
		t.Fatal(err)
	}
	g := New(s, Config{Seed: 1, Iters: 1, MaxLen: 4, Find: FindAll, Pairs: PairsDependent})
	for _, tg := range g.Targets() {
		if tg.M1 == "Put" || tg.M2 == "Put" {
			t.Errorf("target %s ∥ %s involves the set-up method Put", tg.M1, tg.M2)
		}
	}
	inPrefix := 0
	for range 200 {
		c := g.Next()
		if c == nil {
			break
		}
		for i, call := range c.Test.Prefix {
			if call.Fn == "Put" {
				inPrefix++
				for _, before := range c.Test.Prefix[:i] {
					if before.Fn != "Put" {
						t.Errorf("prefix %v: %s before the set-up call Put", c.Test.Prefix, before.Fn)
					}
				}
			}
		}
	}
	if inPrefix == 0 {
		t.Errorf("the set-up method Put was never called in a prefix")
	}
}

// TestContractWarnings checks two contracts written as prose: a type
// documented to end with a method once all the work is submitted (that
// method is not run concurrently with those changing the object), and a
// method whose documentation warns of races with the methods it names
// (and their variants) unless they finished first. Ordinary sentences
// naming methods forbid nothing.
func TestContractWarnings(t *testing.T) {
	typeDoc := "Pool is a pool of goroutines.\n\nOnce all your tasks have been submitted, you must call Wait() to clean up."
	docs := map[string]string{
		"Reboot": "Reboot reboots a closed pool. If you intend to reboot a closed pool, use ReleaseTimeout() instead of\nRelease() " +
			"to ensure that all workers are stopped before rebooting, otherwise you may run into data race.",
		"Close": "Close stops the pool. It waits for Submit calls in progress before returning.",
	}
	methods := []string{"Go", "Wait", "Len", "Cap", "Reboot", "Release", "ReleaseTimeout", "ReleaseContext", "Submit", "Close"}
	plan := &deps.TypePlan{
		Methods: []deps.Method{{Name: "Go", Writes: 2}, {Name: "Wait", Writes: 1}, {Name: "Len"}, {Name: "Submit", Writes: 1},
			{Name: "Close", Writes: 1}},
		Pairs: []deps.Pair{
			{M1: "Go", M2: "Wait", Deps: []string{deps.DepPC}},
			{M1: "Len", M2: "Wait", Deps: []string{deps.DepPC}},
			{M1: "Submit", M2: "Wait", Deps: []string{deps.DepPC}},
		},
	}
	c := readContract(docs, typeDoc, "", methods)
	c.extend(plan)
	for _, tc := range []struct {
		m1, m2 string
		ok     bool
	}{
		{"Go", "Wait", false},     // Wait ends the use
		{"Submit", "Wait", false}, // changes what Wait depends on
		{"Len", "Wait", false},    // conflicts with Wait
		{"Cap", "Wait", true},     // no conflict with Wait
		{"Reboot", "ReleaseTimeout", false},
		{"Reboot", "Release", false},
		{"Reboot", "ReleaseContext", false}, // a variant of Release
		{"Reboot", "Go", true},
		{"Close", "Submit", true}, // no warning, only a description
		{"Go", "Go", true},
	} {
		if got := c.allows(tc.m1, tc.m2); got != tc.ok {
			t.Errorf("allows(%s, %s) = %v, want %v", tc.m1, tc.m2, got, tc.ok)
		}
	}
}

// TestContractFinal checks a method documented as the last call ("Other
// methods should not be called after the snapshot has been released"):
// it is not run with the methods that do not synchronise at all, and is
// run with those that do (they check, under a lock, whether the object
// is still in use).
func TestContractFinal(t *testing.T) {
	docs := map[string]string{
		"Release": "Release releases the snapshot.\n\nOther methods should not be called after the snapshot has been released.",
	}
	methods := []string{"Release", "String", "Has", "Get"}
	plan := &deps.TypePlan{Methods: []deps.Method{{Name: "Release", Writes: 3}, {Name: "String", Unsynchronised: true},
		{Name: "Has"}, {Name: "Get"}}}
	c := readContract(docs, "", "", methods)
	c.extend(plan)
	for _, tc := range []struct {
		m1, m2 string
		ok     bool
	}{
		{"Release", "String", false},
		{"String", "Release", false},
		{"Has", "Release", true},
		{"Get", "Release", true},
		{"Has", "String", true},
		{"Release", "Release", true},
	} {
		if got := c.allows(tc.m1, tc.m2); got != tc.ok {
			t.Errorf("allows(%s, %s) = %v, want %v", tc.m1, tc.m2, got, tc.ok)
		}
	}
	if got := c.forbids("String", "Release"); got != "Other methods should not be called after" {
		t.Errorf("forbids(String, Release) = %q", got)
	}
	if got := c.forbids("Has", "Release"); got != "" {
		t.Errorf("forbids(Has, Release) = %q", got)
	}
	if readContract(map[string]string{"Close": "Close closes the file."}, "", "", methods).final["Close"] != "" {
		t.Error("a plain Close doc read as final")
	}
}

// TestGroupContract checks the concurrency a connection package's
// documentation gives its methods in groups: pairs within a group are
// forbidden, and with "no other concurrency" every pair but those across
// groups and those of methods said to run with all others; a type that
// lacks the methods named is not bound.
func TestGroupContract(t *testing.T) {
	redigo := "Package redis is a client. Connections support one concurrent caller to the Receive method and one " +
		"concurrent caller to the Send and Flush methods. No other concurrency is supported including concurrent calls " +
		"to the Do and Close methods. For full concurrent access to Redis, use the thread-safe Pool."
	conn := []string{"Close", "Do", "DoWithTimeout", "Err", "Flush", "Receive", "Send"}
	c := readContract(nil, "", redigo, conn)
	for _, tc := range []struct {
		m1, m2    string
		forbidden bool
	}{
		{"Receive", "Send", false}, {"Receive", "Flush", false},
		{"Receive", "Receive", true}, {"Send", "Flush", true}, {"Send", "Send", true},
		{"Do", "DoWithTimeout", true}, {"Do", "Send", true}, {"DoWithTimeout", "Flush", true}, {"Close", "Err", true},
	} {
		if got := c.forbids(tc.m1, tc.m2) != ""; got != tc.forbidden {
			t.Errorf("redigo %s ∥ %s: forbidden %v, want %v (%q)", tc.m1, tc.m2, got, tc.forbidden, c.forbids(tc.m1, tc.m2))
		}
	}
	if c := readContract(nil, "", redigo, []string{"Get", "Close", "Stats"}); c.forbids("Get", "Close") != "" {
		t.Errorf("the Pool is bound: %q", c.forbids("Get", "Close"))
	}
	websocket := "Connections support one concurrent reader and one concurrent writer. Applications are responsible " +
		"for ensuring that no more than one goroutine calls the write methods (NextWriter, WriteMessage) concurrently " +
		"and that no more than one goroutine calls the read methods (NextReader, ReadMessage) concurrently. The Close " +
		"and WriteControl methods can be called concurrently with all other methods."
	ws := []string{"Close", "NextReader", "NextWriter", "ReadMessage", "WriteControl", "WriteMessage"}
	c = readContract(nil, "", websocket, ws)
	for _, tc := range []struct {
		m1, m2    string
		forbidden bool
	}{
		{"WriteMessage", "NextWriter", true}, {"ReadMessage", "ReadMessage", true},
		{"ReadMessage", "WriteMessage", false}, {"Close", "WriteMessage", false}, {"WriteControl", "WriteControl", false},
	} {
		if got := c.forbids(tc.m1, tc.m2) != ""; got != tc.forbidden {
			t.Errorf("websocket %s ∥ %s: forbidden %v, want %v", tc.m1, tc.m2, got, tc.forbidden)
		}
	}
	plain := "Package cache is safe for concurrent use. Only one goroutine may hold a Handle at a time."
	if c := readContract(nil, "", plain, []string{"Get", "Put"}); c.forbids("Get", "Put") != "" || c.forbids("Get", "Get") != "" {
		t.Errorf("a sentence naming no method of the type binds it")
	}
}

// TestContractLast checks that a method's documentation telling its
// callers to call another method after all its calls ("you should call
// the method Close() after all events are fired", on FireAsync) keeps
// that method from running concurrently with the methods it conflicts
// with, and nothing else.
func TestContractLast(t *testing.T) {
	docs := map[string]string{
		"FireAsync": "FireAsync fires an event asynchronously.\n\nNOTE: you should call the method Close() after all events are fired.",
		"Close":     "Close waits for the events in flight.",
	}
	methods := []string{"FireAsync", "Close", "On"}
	c := readContract(docs, "", "", methods)
	c.extend(&deps.TypePlan{Name: "Manager", Methods: []deps.Method{{Name: "FireAsync", Writes: 1}, {Name: "Close", Writes: 1},
		{Name: "On", Writes: 1}}, Pairs: []deps.Pair{
		{M1: "Close", M2: "FireAsync", Deps: []string{deps.DepPC}},
		{M1: "FireAsync", M2: "On", Deps: []string{deps.DepPC}},
	}})
	if c.allows("Close", "FireAsync") || c.allows("FireAsync", "Close") {
		t.Error("Close ∥ FireAsync allowed: FireAsync's documentation orders Close after all its calls")
	}
	if !c.allows("FireAsync", "On") || !c.allows("Close", "On") {
		t.Error("a pair the phrase does not bind is forbidden")
	}
}
