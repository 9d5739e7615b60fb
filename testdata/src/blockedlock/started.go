package blockedlock

import "sync"

// Store's Flush holds mu while it waits for the flush it starts, which
// takes mu itself: the goroutine does not release Flush's lock, it waits
// for it.
type Store struct {
	mu    sync.Mutex
	wg    sync.WaitGroup
	dirty []string
}

func (s *Store) flush() {
	defer s.wg.Done()
	s.mu.Lock()
	s.dirty = s.dirty[:0]
	s.mu.Unlock()
}

func (s *Store) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wg.Add(1)
	go s.flush()
	s.wg.Wait() // want `Wait on s.wg blocks while holding s.mu \(locked at started.go:22\), but the Done that would unblock it \(in flush at started.go:15\) happens only after locking s.mu`
}

// StoreOK waits for its flush before it takes the lock.
type StoreOK struct {
	mu    sync.Mutex
	wg    sync.WaitGroup
	dirty []string
}

func (s *StoreOK) flush() {
	defer s.wg.Done()
	s.mu.Lock()
	s.dirty = s.dirty[:0]
	s.mu.Unlock()
}

func (s *StoreOK) Flush() {
	s.wg.Add(1)
	go s.flush()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dirty = nil
}

// Handed hands its lock to the goroutine it starts, which releases it
// when the work is done; Wait then waits without the lock.
type Handed struct {
	mu sync.Mutex
	wg sync.WaitGroup
	n  int
}

func (h *Handed) Run() {
	h.mu.Lock()
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.n++
		h.mu.Unlock()
	}()
	h.wg.Wait()
}
