// Package correct has types that are correctly synchronised: depcon test
// must never report anything on them.
package correct

import (
	"sort"
	"sync"
	"sync/atomic"
)

// Counter is a counter safe for concurrent use.
type Counter struct {
	mu sync.Mutex
	n  int
	hi int
}

// NewCounter returns a counter starting at n.
func NewCounter(n int) *Counter { return &Counter{n: n, hi: n} }

// Add adds d and returns the new value.
func (c *Counter) Add(d int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += d
	c.hi = max(c.hi, c.n)
	return c.n
}

// Value returns the current value.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// High returns the highest value reached.
func (c *Counter) High() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hi
}

// Reset sets the value back to zero and returns the old one.
func (c *Counter) Reset() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.n
	c.n = 0
	return old
}

// Registry maps names to values, safe for concurrent use.
type Registry struct {
	mu sync.RWMutex
	m  map[string]int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{m: map[string]int{}} }

// Set sets name.
func (r *Registry) Set(name string, v int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[name] = v
}

// Lookup returns the value of name.
func (r *Registry) Lookup(name string) (int, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	v, ok := r.m[name]
	return v, ok
}

// Delete removes name.
func (r *Registry) Delete(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, name)
}

// Names returns the names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.m))
	for n := range r.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// snapshot returns a copy of the entries.
func (r *Registry) snapshot() map[string]int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	m := make(map[string]int, len(r.m))
	for k, v := range r.m {
		m[k] = v
	}
	return m
}

// Merge copies the entries of o into r. It never holds both locks: it
// copies o first, then locks r.
func (r *Registry) Merge(o *Registry) {
	if o == r {
		return
	}
	m := o.snapshot()
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, v := range m {
		r.m[k] = v
	}
}

// Equal reports whether r and o hold the same entries, comparing
// snapshots.
func (r *Registry) Equal(o *Registry) bool {
	a, b := r.snapshot(), o.snapshot()
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Gauge is a gauge updated with atomics, and a set of labels in a
// sync.Map, safe for concurrent use.
type Gauge struct {
	v      atomic.Int64
	max    atomic.Int64
	labels sync.Map
	done   chan struct{}
	once   sync.Once
}

// NewGauge returns a gauge.
func NewGauge() *Gauge { return &Gauge{done: make(chan struct{})} }

// Set sets the gauge.
func (g *Gauge) Set(v int64) {
	g.v.Store(v)
	for {
		m := g.max.Load()
		if v <= m || g.max.CompareAndSwap(m, v) {
			return
		}
	}
}

// Value returns the gauge's value.
func (g *Gauge) Value() int64 { return g.v.Load() }

// Max returns the highest value set.
func (g *Gauge) Max() int64 { return g.max.Load() }

// Label sets a label.
func (g *Gauge) Label(k, v string) { g.labels.Store(k, v) }

// Labels returns the number of labels.
func (g *Gauge) Labels() int {
	n := 0
	g.labels.Range(func(any, any) bool { n++; return true })
	return n
}

// Stop stops the gauge; it may be called more than once.
func (g *Gauge) Stop() { g.once.Do(func() { close(g.done) }) }

// Stopped reports whether Stop was called.
func (g *Gauge) Stopped() bool {
	select {
	case <-g.done:
		return true
	default:
		return false
	}
}

// Buffer is a byte buffer safe for concurrent use.
type Buffer struct {
	mu     sync.RWMutex
	data   []byte
	closed bool
}

// NewBuffer returns a buffer holding a copy of p.
func NewBuffer(p []byte) *Buffer { return &Buffer{data: append([]byte(nil), p...)} }

// Write appends p, unless the buffer is closed.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, errClosed
	}
	b.data = append(b.data, p...)
	return len(p), nil
}

// Read moves up to len(p) bytes into p.
func (b *Buffer) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, errClosed
	}
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}

// Len returns the number of unread bytes.
func (b *Buffer) Len() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.data)
}

// Bytes returns a copy of the unread bytes.
func (b *Buffer) Bytes() []byte {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return append([]byte(nil), b.data...)
}

// CopyFrom appends the unread bytes of o, which it copies before it locks b.
func (b *Buffer) CopyFrom(o *Buffer) error {
	_, err := b.Write(o.Bytes())
	return err
}

// Close closes the buffer.
func (b *Buffer) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.data = nil
}

var errClosed = errorString("correct: buffer closed")

type errorString string

func (e errorString) Error() string { return string(e) }
