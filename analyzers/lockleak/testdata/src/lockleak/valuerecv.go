package lockleak

import "sync"

// Handle is passed by value and locks the table it points to, through
// helpers with value receivers: their receiver is spilled to a local
// copy, and the lock is still the receiver's table's.
type Handle struct {
	t *table
}

type table struct {
	mu   sync.Mutex
	rows map[string]int
}

func (h Handle) lock()   { h.t.mu.Lock() }
func (h Handle) unlock() { h.t.mu.Unlock() }

// Drop returns holding the lock that lock took.
func (h Handle) Drop(k string) error {
	h.lock()
	if _, ok := h.t.rows[k]; !ok {
		return ErrClosed // want `h.t.mu is still locked at this return \(locked by lock at valuerecv.go:22\)`
	}
	delete(h.t.rows, k)
	h.unlock()
	return nil
}

// DropOK releases it on both returns.
func (h Handle) DropOK(k string) error {
	h.lock()
	if _, ok := h.t.rows[k]; !ok {
		h.unlock()
		return ErrClosed
	}
	delete(h.t.rows, k)
	h.unlock()
	return nil
}

// Set releases, itself, the lock the helper took: one lock.
func (h Handle) Set(k string, v int) error {
	h.lock()
	if v < 0 {
		h.t.mu.Unlock()
		return ErrClosed
	}
	h.t.rows[k] = v
	h.t.mu.Unlock()
	return nil
}

// Bump, through a pointer to the handle, returns holding the lock.
func (h *Handle) Bump(k string) error {
	h.lock()
	if h.t.rows == nil {
		return ErrClosed // want `h.t.mu is still locked at this return`
	}
	h.t.rows[k]++
	h.unlock()
	return nil
}

// BumpOK releases it on both returns.
func (h *Handle) BumpOK(k string) error {
	h.lock()
	if h.t.rows == nil {
		h.unlock()
		return ErrClosed
	}
	h.t.rows[k]++
	h.unlock()
	return nil
}
