// Package throttle limits the number of operations in flight.
package throttle

import (
	"sync"
	"sync/atomic"
)

// Limiter admits at most a fixed number of concurrent operations and keeps
// statistics about admissions. A Limiter is safe for concurrent use by
// multiple goroutines.
type Limiter struct {
	limit    int64
	inflight int64

	mu       sync.Mutex
	rejected int
	peak     int64
}

// NewLimiter returns a Limiter admitting up to limit operations at once.
func NewLimiter(limit int) *Limiter {
	return &Limiter{limit: int64(max(limit, 0))}
}

// Limit returns the maximum number of operations in flight.
func (l *Limiter) Limit() int { return int(l.limit) }

// Acquire admits an operation and reports whether it may proceed. Every
// successful Acquire must be followed by a Release.
func (l *Limiter) Acquire() bool {
	n := atomic.AddInt64(&l.inflight, 1)
	l.mu.Lock()
	defer l.mu.Unlock()
	if n > l.limit {
		atomic.AddInt64(&l.inflight, -1)
		l.rejected++
		return false
	}
	l.peak = max(l.peak, n)
	return true
}

// Release ends an admitted operation.
func (l *Limiter) Release() {
	for {
		n := atomic.LoadInt64(&l.inflight)
		if n <= 0 || atomic.CompareAndSwapInt64(&l.inflight, n, n-1) {
			return
		}
	}
}

// InFlight returns the number of admitted operations not yet released.
func (l *Limiter) InFlight() int { return int(atomic.LoadInt64(&l.inflight)) }

// Stats returns the number of rejected operations and the highest number
// of operations in flight so far.
func (l *Limiter) Stats() (rejected, peak int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rejected, int(l.peak)
}

// Reset forgets all operations in flight and clears the statistics.
func (l *Limiter) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight = 0
	l.rejected = 0
	l.peak = 0
}
