// Package headers implements a multi-valued, case-insensitive set of
// header fields.
package headers

import (
	"net/textproto"
	"sort"
	"sync"
)

// Header maps canonical field names to their values. The zero value is an
// empty Header ready to use. A Header is safe for concurrent use by
// multiple goroutines.
type Header struct {
	mu sync.Mutex
	m  map[string][]string
}

// Add appends value to the field key.
func (h *Header) Add(key, value string) {
	key = textproto.CanonicalMIMEHeaderKey(key)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = make(map[string][]string)
	}
	h.m[key] = append(h.m[key], value)
}

// Set replaces the values of key with value.
func (h *Header) Set(key, value string) {
	key = textproto.CanonicalMIMEHeaderKey(key)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = make(map[string][]string)
	}
	h.m[key] = []string{value}
}

// Get returns the first value of key, or "".
func (h *Header) Get(key string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if vs := h.m[textproto.CanonicalMIMEHeaderKey(key)]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// Del removes the field key.
func (h *Header) Del(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.m, textproto.CanonicalMIMEHeaderKey(key))
}

// Keys returns the field names, sorted.
func (h *Header) Keys() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	keys := make([]string, 0, len(h.m))
	for k := range h.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Clone returns a deep copy of h.
func (h *Header) Clone() *Header {
	c := &Header{m: make(map[string][]string, len(h.m))}
	for k, vs := range h.m {
		c.m[k] = append([]string(nil), vs...)
	}
	return c
}
