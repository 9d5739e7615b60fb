package lockstate

import (
	"maps"

	"golang.org/x/tools/go/ssa"
)

// MaxSpecs is the most specialisations of one function that Specs
// computes; calls beyond them have the function's general effect.
const MaxSpecs = 4

// MaxSpecRounds bounds the rounds of a recursive specialisation (see
// Specs.Same).
const MaxSpecRounds = 3

// Specs memoises the specialisations of functions for Consts, T being
// what an analysis computes of one (a summary, a lock flow): at most
// MaxSpecs per function.
//
// A specialisation may call itself (a function that recurses with the
// same constants). Where Same is set, such a call has the previous
// round's specialisation (the zero T at first), and the specialisation
// is computed again, with its result as the previous round's, until it
// no longer changes or MaxSpecRounds rounds have run. A specialisation
// computed while it used the previous round of another one still in
// progress (a mutual recursion) is not final: it is kept only until a
// specialisation it may have used begins another round or is done, and
// computed again at its next call after that. Where Same is nil, such a
// call has the function's general effect.
type Specs[T any] struct {
	// Same reports whether two rounds of a specialisation agree.
	Same func(a, b T) bool
	done map[*ssa.Function]map[string]T
	// kept are the specialisations that are not final.
	kept  map[keptKey]keptSpec[T]
	stack []specFrame[T]
}

// keptKey names a specialisation: its function and Consts key.
type keptKey struct {
	fn  *ssa.Function
	key string
}

// keptSpec is a specialisation that used the previous round of one in
// progress: that of the frame low, or of one above it.
type keptSpec[T any] struct {
	t     T
	depth int // the index of the frame that computed it
	low   int
}

// specFrame is a specialisation being computed.
type specFrame[T any] struct {
	k    Consts
	prev T    // the previous round's
	hit  bool // a call of the specialisation itself used prev
	low  int  // the lowest frame whose prev this one, or a callee, used
}

// Get returns the specialisation of k.Fn for k: memoised, or computed
// by compute, which also reports whether its result may be memoised
// (not when it used effects that are not final). It reports false, and
// computes nothing, when k is zero, when k.Fn has MaxSpecs
// specialisations already, or when that for k is being computed and
// Same is nil: the call then has the function's general effect.
func (s *Specs[T]) Get(k Consts, compute func() (T, bool)) (T, bool) {
	var zero T
	if k.IsZero() {
		return zero, false
	}
	if t, ok := s.done[k.Fn][k.Key]; ok {
		return t, true
	}
	if e, ok := s.kept[keptKey{k.Fn, k.Key}]; ok {
		s.depend(e.low)
		return e.t, true
	}
	n := len(s.done[k.Fn])
	for i := range s.stack {
		f := &s.stack[i]
		if f.k.Fn != k.Fn {
			continue
		}
		if f.k.Key == k.Key {
			if s.Same == nil {
				return zero, false
			}
			f.hit = true
			s.depend(i)
			return f.prev, true
		}
		n++
	}
	if n >= MaxSpecs {
		return zero, false
	}
	idx := len(s.stack)
	s.stack = append(s.stack, specFrame[T]{k: k, low: idx})
	var t T
	memo := true
	for round := 1; ; round++ {
		s.stack[idx].hit = false
		t, memo = compute()
		f := &s.stack[idx]
		if !f.hit || round >= MaxSpecRounds || s.Same(f.prev, t) {
			break
		}
		f.prev = t
		s.forget(idx)
	}
	low := s.stack[idx].low
	s.stack = s.stack[:idx]
	s.forget(idx)
	if low < idx {
		s.depend(low)
		if memo {
			if s.kept == nil {
				s.kept = map[keptKey]keptSpec[T]{}
			}
			s.kept[keptKey{k.Fn, k.Key}] = keptSpec[T]{t: t, depth: idx, low: low}
		}
		return t, true
	}
	if memo {
		if s.done == nil {
			s.done = map[*ssa.Function]map[string]T{}
		}
		if s.done[k.Fn] == nil {
			s.done[k.Fn] = map[string]T{}
		}
		s.done[k.Fn][k.Key] = t
	}
	return t, true
}

// depend records that the specialisation on top of the stack used the
// previous round of frame i.
func (s *Specs[T]) depend(i int) {
	if top := len(s.stack) - 1; top >= 0 && i < s.stack[top].low {
		s.stack[top].low = i
	}
}

// Depth returns the number of specialisations being computed.
func (s *Specs[T]) Depth() int { return len(s.stack) }

// forget drops the kept specialisations that frame i's previous round
// may have been used for: those computed above it.
func (s *Specs[T]) forget(i int) {
	maps.DeleteFunc(s.kept, func(_ keptKey, e keptSpec[T]) bool { return e.depth > i })
}

// Reset forgets the memoised specialisations.
func (s *Specs[T]) Reset() { s.done, s.kept = nil, nil }
