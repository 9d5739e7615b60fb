package truncated

import "sync"

// V holds a T: Big calls T.Big, whose summary is cut at its size limit.
// V.Big's summary has room for all that T.Big's shows, but not for what
// it lost: it is cut too.
type V struct {
	mu sync.Mutex
	t  T
}

// Big calls T.Big on the T that V holds.
func (v *V) Big() int { return v.t.Big() }

// Tail reads, under V's lock, the field that T.Big writes last: only
// what T.Big's summary lost conflicts with it.
func (v *V) Tail() int { v.mu.Lock(); defer v.mu.Unlock(); return v.t.f299 }

// W locks a, then b, around a call of T.Big; BA locks them the other way.
// AB ∥ BA is double-lock dependent, and parallel and conflict dependent
// too: AB's summary is cut.
type W struct {
	a, b sync.Mutex
	t    T
}

// AB calls T.Big holding a, then b.
func (w *W) AB() int {
	w.a.Lock()
	defer w.a.Unlock()
	w.b.Lock()
	defer w.b.Unlock()
	return w.t.Big()
}

// BA locks b, then a.
func (w *W) BA() {
	w.b.Lock()
	w.a.Lock()
	w.a.Unlock()
	w.b.Unlock()
}

// U has no lock: Big's write of t.last, which Last reads, would be a
// contract question (may Big be called while Last runs?), Reset a fluent
// setter, and SetN the only writer of n, were Big's summary whole; it is
// cut, and may have lost the locks that order them, or writes of n.
type U struct {
	t T
	n int
}

// Big calls T.Big on the T that U holds.
func (u *U) Big() int { return u.t.Big() }

// Last reads t.last.
func (u *U) Last() int { return u.t.last }

// Reset calls T.Big and returns its receiver.
func (u *U) Reset() *U {
	u.t.Big()
	return u
}

// SetN writes n.
func (u *U) SetN(n int) { u.n = n }

// N reads n.
func (u *U) N() int { return u.n }
