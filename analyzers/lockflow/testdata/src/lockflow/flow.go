// Package lockflow holds functions whose lock states at their returns
// the lockflow test reads: the probe reports, at each return, the locks
// held there for sure, those that may be held, and those released.
package lockflow

import (
	"errors"
	"sync"
)

type store struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	parts [4]sync.Mutex
	m     map[string]int
}

var errMissing = errors.New("missing")

// Early return holding the lock: held there, released at the other.
func (s *store) get(k string) (int, error) {
	s.mu.Lock()
	v, ok := s.m[k]
	if !ok {
		return 0, errMissing // want `held s.mu`
	}
	s.mu.Unlock()
	return v, nil // want `released s.mu`
}

// A deferred unlock releases at every return.
func (s *store) put(k string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = v
} // want `released s.mu`

// A lock taken on one branch may be held at the join.
func (s *store) maybe(b bool) {
	if b {
		s.mu.Lock()
	}
} // want `may hold s.mu`

// A helper that returns holding the lock, and its caller that releases
// it: the callee's net effect is mapped onto the caller's path.
func (s *store) lock() { s.mu.Lock() } // want `held s.mu`

func (s *store) viaHelper() {
	s.lock()
	s.m["x"]++
	s.mu.Unlock()
} // want `released s.mu`

// Exact indices: the lock of one element is not the lock of another.
func (s *store) part(i, j int) {
	s.parts[i].Lock()
	s.parts[j].Unlock()
} // want `held s.parts\[i\], released s.parts\[j\]`

// A TryLock holds the lock on its true branch only.
func (s *store) try() bool {
	if s.rw.TryRLock() {
		return true // want `held s.rw`
	}
	return false
}

// A local mutex is named by its variable.
func local() {
	var mu sync.Mutex
	mu.Lock()
	mu.Unlock()
} // want `released mu`

// The function releases its caller's lock: nothing is held for sure at
// its return, and the lock is released.
func (s *store) unlockFor() { s.mu.Unlock() } // want `released s.mu`

// A channel of one slot used as a mutex: a send takes it, a receive
// gives it back, and a select's case that sends holds it on the branch
// of that case only.
type journal struct {
	lockC chan struct{}
	quit  chan struct{}
	n     int
}

func newJournal() *journal {
	return &journal{lockC: make(chan struct{}, 1), quit: make(chan struct{})}
}

func (j *journal) add() bool {
	select {
	case j.lockC <- struct{}{}:
	case <-j.quit:
		return false
	}
	if j.n < 0 {
		return false // want `held j.lockC`
	}
	j.n++
	<-j.lockC
	return true // want `released j.lockC`
}

func (j *journal) len() int {
	j.lockC <- struct{}{}
	defer j.unlock()
	return j.n // want `released j.lockC`
}

func (j *journal) unlock() { <-j.lockC } // want `released j.lockC`

// Helpers that take or release the lock as a bool parameter says: a call
// passing a constant has the effect of the helper for that value; one
// passing a variable, the helper's effect on either branch.
func (s *store) acquire(locked bool) {
	if !locked {
		s.mu.Lock()
	}
} // want `may hold s.mu`

func (s *store) release(held bool) {
	if held == true {
		s.mu.Unlock()
	}
} // want `released s.mu`

func (s *store) acquired() {
	s.acquire(false)
} // want `held s.mu`

func (s *store) keptHeld() {
	s.mu.Lock()
	s.release(false)
} // want `held s.mu`

func (s *store) releasedAfter() {
	s.mu.Lock()
	s.release(true)
} // want `released s.mu`

func (s *store) either(b bool) {
	s.mu.Lock()
	s.release(b)
} // want `may hold s.mu`
