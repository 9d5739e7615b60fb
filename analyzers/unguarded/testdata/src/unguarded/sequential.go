package unguarded

import "sync"

// A Fields' Reset is documented never to run concurrently: its plain
// write races with nothing, by contract. Clear has no such documentation.
type Fields struct {
	mu     sync.Mutex
	fields map[string]string
	n      int
}

func (h *Fields) Set(k, v string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fields[k] = v
	h.n++
}

func (h *Fields) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// Reset empties the fields. It must not be called concurrently with
// other methods.
func (h *Fields) Reset() { h.n = 0 }

// Clear empties the fields.
func (h *Fields) Clear() {
	h.n = 0 // want `h.n is written in Clear without h.mu`
}
