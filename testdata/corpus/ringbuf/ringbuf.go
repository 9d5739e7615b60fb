// Package ringbuf keeps the most recent values of a series.
package ringbuf

import "sync"

// Ring holds the last Cap values pushed, oldest first. Its capacity can
// be changed at any time; the newest values are kept. A Ring is safe for
// concurrent use by multiple goroutines.
type Ring struct {
	mu    sync.Mutex
	buf   []float64
	next  int // total number of values pushed
	grown int
}

// NewRing returns an empty ring holding up to capacity values (at least
// 1).
func NewRing(capacity int) *Ring {
	if capacity < 1 {
		capacity = 1
	}
	return &Ring{buf: make([]float64, capacity)}
}

// Push appends v, dropping the oldest value when the ring is full.
func (r *Ring) Push(v float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf[r.next%len(r.buf)] = v
	r.next++
}

// Len returns the number of values held.
func (r *Ring) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return min(r.next, len(r.buf))
}

// Cap returns the capacity.
func (r *Ring) Cap() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.buf)
}

// Values returns the values held, oldest first.
func (r *Ring) Values() []float64 {
	vs, _ := r.values()
	return vs
}

// values returns the values held, oldest first, and the number of pushes.
func (r *Ring) values() ([]float64, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.snapshot(r.buf, r.next), r.next
}

// Mean returns the mean of the values held, 0 when empty.
func (r *Ring) Mean() float64 {
	vs := r.Values()
	if len(vs) == 0 {
		return 0
	}
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	return sum / float64(len(vs))
}

// Resize changes the capacity to n (at least 1), keeping the newest
// values.
func (r *Ring) Resize(n int) {
	if n < 1 {
		n = 1
	}
	vs, pushed := r.values()
	if len(vs) > n {
		vs = vs[len(vs)-n:]
	}
	buf := make([]float64, n)
	k := copy(buf, vs)
	old, now := r.detach()
	if now != pushed { // pushed to since the copy
		k = refill(buf, old, now)
	}
	r.mu.Lock()
	r.buf, r.next = buf, k
	r.grown++
	r.mu.Unlock()
}

// detach takes the buffer out of the ring for a resize.
func (r *Ring) detach() ([]float64, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.buf
	r.buf = nil
	return old, r.next
}

// refill copies the newest values of old, after pushed pushes, into buf,
// oldest first, and returns how many it copied.
func refill(buf, old []float64, pushed int) int {
	k := min(pushed, len(old), len(buf))
	for j := 0; j < k; j++ {
		buf[j] = old[(pushed-k+j)%len(old)]
	}
	return k
}

// snapshot returns the values of buf after pushed pushes, oldest first.
func (r *Ring) snapshot(buf []float64, pushed int) []float64 {
	if pushed <= len(buf) {
		return append([]float64(nil), buf[:pushed]...)
	}
	i := pushed % len(buf)
	return append(append([]float64(nil), buf[i:]...), buf[:i]...)
}
