package lockflow

import (
	"go/token"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// The lock State of one lock at a program point is a set of the ways it
// may be, over the paths that reach the point: untouched since the
// function's entry (E), held (H), or released (N). A lock is definitely
// held where its set is exactly H; where paths disagree ({H, N}, a lock
// taken on one branch only) nothing is certain and nothing is reported.
const (
	Untouched uint8 = 1 << iota
	Held
	Released
)

// Deferred operations on a lock, as a set over paths: none (dE), a
// deferred release (dR), a deferred acquisition (dA).
const (
	dE uint8 = 1 << iota
	dR
	dA
)

// An Acq is an acquisition: the lock, where it was acquired (a Lock call,
// or a call of a function that returns holding it) and in which mode.
type Acq struct {
	Path lockstate.ExactPath
	Pos  token.Pos
	Read bool
	Via  string // the callee that acquires it, if not a direct Lock
}

// State is the lock State at a program point.
type State struct {
	held map[string]uint8
	def  map[string]uint8
	site map[string]Acq
	dead bool // no path reaches the point
}

func newState() *State {
	return &State{held: map[string]uint8{}, def: map[string]uint8{}, site: map[string]Acq{}}
}

func deadState() *State {
	s := newState()
	s.dead = true
	return s
}

// Clone returns a copy of s.
func (s *State) Clone() *State {
	c := &State{held: make(map[string]uint8, len(s.held)), def: make(map[string]uint8, len(s.def)), site: make(map[string]Acq, len(s.site)), dead: s.dead}
	for k, v := range s.held {
		c.held[k] = v
	}
	for k, v := range s.def {
		c.def[k] = v
	}
	for k, v := range s.site {
		c.site[k] = v
	}
	return c
}

func (s *State) get(k string) uint8 {
	if v, ok := s.held[k]; ok {
		return v
	}
	return Untouched
}

func (s *State) getDef(k string) uint8 {
	if v, ok := s.def[k]; ok {
		return v
	}
	return dE
}

// Join merges t into s and reports whether s changed.
func (s *State) Join(t *State) bool {
	if t.dead {
		return false
	}
	if s.dead {
		*s = *t.Clone()
		return true
	}
	changed := false
	keys := map[string]bool{}
	for k := range s.held {
		keys[k] = true
	}
	for k := range t.held {
		keys[k] = true
	}
	for k := range keys {
		v := s.get(k) | t.get(k)
		if v != s.get(k) {
			s.held[k] = v
			changed = true
		}
	}
	keys = map[string]bool{}
	for k := range s.def {
		keys[k] = true
	}
	for k := range t.def {
		keys[k] = true
	}
	for k := range keys {
		v := s.getDef(k) | t.getDef(k)
		if v != s.getDef(k) {
			s.def[k] = v
			changed = true
		}
	}
	for k, a := range t.site {
		if b, ok := s.site[k]; !ok || a.Pos < b.Pos {
			if !ok {
				changed = true
			}
			s.site[k] = a
		}
	}
	return changed
}

// exit returns the State of lock k once the deferred calls have run.
func (s *State) exit(k string) uint8 {
	d := s.getDef(k)
	var v uint8
	if d&dE != 0 {
		v |= s.get(k)
	}
	if d&dR != 0 {
		v |= Released
	}
	if d&dA != 0 {
		v |= Held
	}
	return v
}

// Reachable reports whether some path reaches the point.
func (s *State) Reachable() bool { return !s.dead }

// End makes s a State that no path reaches (lockstate.State).
func (s *State) End() { s.dead = true }
