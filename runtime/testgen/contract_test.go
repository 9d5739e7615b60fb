package testgen

import (
	"testing"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

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
	c := contract.Read(docs, "", "", []string{"Go", "TryGo", "Wait", "Len", "SetLimit"})
	extendRules(c, plan)
	for _, tc := range []struct {
		m1, m2 string
		ok     bool
	}{
		{"TryGo", "Wait", false}, // writes what Go writes
		{"Go", "Wait", false},
		{"Len", "Wait", true}, // reads only
		{"Go", "TryGo", true},
	} {
		if got := c.Allows(tc.m1, tc.m2); got != tc.ok {
			t.Errorf("allows(%s, %s) = %v, want %v", tc.m1, tc.m2, got, tc.ok)
		}
	}
	calls := sequentialFirst(c, []harness.Call{{Fn: "Go"}, {Fn: "Len"}, {Fn: "SetLimit"}, {Fn: "TryGo"}})
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
	c := contract.Read(docs, typeDoc, "", methods)
	extendRules(c, plan)
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
		if got := c.Allows(tc.m1, tc.m2); got != tc.ok {
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
	c := contract.Read(docs, "", "", methods)
	extendRules(c, plan)
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
		if got := c.Allows(tc.m1, tc.m2); got != tc.ok {
			t.Errorf("allows(%s, %s) = %v, want %v", tc.m1, tc.m2, got, tc.ok)
		}
	}
	if got := c.Forbids("String", "Release"); got != "Other methods should not be called after" {
		t.Errorf("forbids(String, Release) = %q", got)
	}
	if got := c.Forbids("Has", "Release"); got != "" {
		t.Errorf("forbids(Has, Release) = %q", got)
	}
	if contract.Read(map[string]string{"Close": "Close closes the file."}, "", "", methods).Final["Close"] != "" {
		t.Error("a plain Close doc read as final")
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
	c := contract.Read(docs, "", "", methods)
	extendRules(c, &deps.TypePlan{Name: "Manager", Methods: []deps.Method{{Name: "FireAsync", Writes: 1}, {Name: "Close", Writes: 1},
		{Name: "On", Writes: 1}}, Pairs: []deps.Pair{
		{M1: "Close", M2: "FireAsync", Deps: []string{deps.DepPC}},
		{M1: "FireAsync", M2: "On", Deps: []string{deps.DepPC}},
	}})
	if c.Allows("Close", "FireAsync") || c.Allows("FireAsync", "Close") {
		t.Error("Close ∥ FireAsync allowed: FireAsync's documentation orders Close after all its calls")
	}
	if !c.Allows("FireAsync", "On") || !c.Allows("Close", "On") {
		t.Error("a pair the phrase does not bind is forbidden")
	}
}
