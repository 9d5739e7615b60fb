package lockstate

import "testing"

// TestSpecs checks that Specs memoises a specialisation, computes at
// most MaxSpecs of one function, none for a zero Consts, and, for
// Consts whose specialisation is being computed, none without Same.
func TestSpecs(t *testing.T) {
	pkg, _ := build(t, boolArgsSrc)
	get := function(t, pkg, "(*T).get")
	var s Specs[int]
	computed := 0
	spec := func(key string) (int, bool) {
		return s.Get(Consts{Fn: get, vals: map[int]bool{1: true}, Key: key}, func() (int, bool) {
			computed++
			return computed, true
		})
	}
	if v, ok := spec("a"); !ok || v != 1 {
		t.Errorf("first: %d, %v; want 1, true", v, ok)
	}
	if v, ok := spec("a"); !ok || v != 1 || computed != 1 {
		t.Errorf("again: %d, %v, computed %d; want 1, true, 1", v, ok, computed)
	}
	for i := 1; i < MaxSpecs; i++ {
		if _, ok := spec(string(rune('a' + i))); !ok {
			t.Errorf("specialisation %d refused", i+1)
		}
	}
	if _, ok := spec("z"); ok {
		t.Errorf("specialisation %d computed, want at most %d", MaxSpecs+1, MaxSpecs)
	}
	if _, ok := s.Get(Consts{}, func() (int, bool) { return 0, true }); ok {
		t.Errorf("zero Consts specialised")
	}
	var inner bool
	var r Specs[int]
	k := Consts{Fn: get, vals: map[int]bool{1: true}, Key: "k"}
	r.Get(k, func() (int, bool) {
		_, inner = r.Get(k, func() (int, bool) { return 0, true })
		return 1, true
	})
	if inner {
		t.Errorf("specialisation computed within itself without Same")
	}
}

// TestSpecsRecursion checks the specialisations that call themselves:
// computed to a fixed point and memoised, and, in a mutual recursion,
// the inner one computed again at its next call.
func TestSpecsRecursion(t *testing.T) {
	pkg, _ := build(t, boolArgsSrc)
	get := function(t, pkg, "(*T).get")
	s := Specs[int]{Same: func(a, b int) bool { return a == b }}
	key := func(name string) Consts { return Consts{Fn: get, vals: map[int]bool{1: true}, Key: name} }
	rounds := 0
	var self func() (int, bool)
	self = func() (int, bool) {
		rounds++
		prev, _ := s.Get(key("self"), self)
		return min(prev+1, 1), true
	}
	if v, _ := s.Get(key("self"), self); v != 1 || rounds != 2 {
		t.Errorf("self: %d in %d rounds, want 1 in 2", v, rounds)
	}
	s.Get(key("self"), self)
	if rounds != 2 {
		t.Errorf("self computed again: %d rounds", rounds)
	}
	inner := 0
	var a, b func() (int, bool)
	a = func() (int, bool) {
		v, _ := s.Get(key("b"), b)
		return v + 1, true
	}
	b = func() (int, bool) {
		inner++
		v, _ := s.Get(key("a"), a)
		return v, true
	}
	s.Get(key("a"), a)
	n := inner
	s.Get(key("b"), b)
	if inner == n {
		t.Errorf("b, computed from a's round in progress, was memoised")
	}
}

// TestSpecsKept checks that a specialisation computed from the previous
// round of one in progress is computed once in that round, and again in
// the next.
func TestSpecsKept(t *testing.T) {
	pkg, _ := build(t, boolArgsSrc)
	get := function(t, pkg, "(*T).get")
	s := Specs[int]{Same: func(a, b int) bool { return a == b }}
	key := func(name string) Consts { return Consts{Fn: get, vals: map[int]bool{1: true}, Key: name} }
	computed := map[string]int{}
	var a, b func() (int, bool)
	a = func() (int, bool) {
		computed["a"]++
		v, _ := s.Get(key("b"), b)
		w, _ := s.Get(key("b"), b)
		return min(v+w+1, 3), true
	}
	b = func() (int, bool) {
		computed["b"]++
		v, _ := s.Get(key("a"), a)
		return v, true
	}
	if v, _ := s.Get(key("a"), a); v != 3 {
		t.Errorf("a = %d, want 3", v)
	}
	// a's rounds see 0, 1, 3 of itself through b: three rounds, b
	// computed once in each.
	if computed["a"] != 3 || computed["b"] != 3 {
		t.Errorf("computed a %d times and b %d times, want 3 and 3", computed["a"], computed["b"])
	}
}
