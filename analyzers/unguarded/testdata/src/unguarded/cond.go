package unguarded

import "sync"

// Throttle's fields are guarded by its sync.Cond's lock: Reset forgets
// it.
type Throttle struct {
	cond    *sync.Cond
	waiting bool
	count   int
}

func NewThrottle() *Throttle { return &Throttle{cond: sync.NewCond(&sync.Mutex{})} }

func (t *Throttle) Trigger() {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	t.waiting = true
	t.count++
	t.cond.Broadcast()
}

func (t *Throttle) Next() {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	for !t.waiting {
		t.cond.Wait()
	}
	t.waiting = false
}

func (t *Throttle) Count() int {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	return t.count
}

func (t *Throttle) Reset() { t.count = 0 } // want `t.count is written in Reset without t.cond.L`

// SafeThrottle, its twin, takes the lock in Reset.
type SafeThrottle struct {
	cond    *sync.Cond
	waiting bool
	count   int
}

func NewSafeThrottle() *SafeThrottle { return &SafeThrottle{cond: sync.NewCond(&sync.Mutex{})} }

func (t *SafeThrottle) Trigger() {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	t.waiting = true
	t.count++
	t.cond.Broadcast()
}

func (t *SafeThrottle) Count() int {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	return t.count
}

func (t *SafeThrottle) Reset() {
	t.cond.L.Lock()
	defer t.cond.L.Unlock()
	t.count = 0
}

// Shared's lock is another object's, reached through a pointer that is
// not a sync.Cond: not a guard of its own fields.
type Shared struct {
	owner *Owner
	count int
}

type Owner struct{ L sync.Mutex }

func (s *Shared) Add() {
	s.owner.L.Lock()
	s.count++
	s.owner.L.Unlock()
}

func (s *Shared) Get() int {
	s.owner.L.Lock()
	defer s.owner.L.Unlock()
	return s.count
}

func (s *Shared) Reset() { s.count = 0 }
