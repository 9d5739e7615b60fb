// Package meter counts events and remembers the largest batch seen.
package meter

import (
	"sync"
	"time"
)

// Meter accumulates event counts. The zero value is an empty Meter ready
// to use. A Meter is safe for concurrent use by multiple goroutines.
type Meter struct {
	mu    sync.Mutex
	count int64
	peak  int
	last  time.Time
}

// Mark records n events. Non-positive n is ignored.
func (m *Meter) Mark(n int) {
	if n <= 0 {
		return
	}
	m.count += int64(n)
	m.mu.Lock()
	if n > m.peak {
		m.peak = n
	}
	m.last = time.Now()
	m.mu.Unlock()
}

// Count returns the number of events recorded.
func (m *Meter) Count() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count
}

// Peak returns the largest n passed to Mark.
func (m *Meter) Peak() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peak
}

// Last returns the time of the most recent Mark, or the zero time.
func (m *Meter) Last() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last
}

// Snapshot returns the count and the peak together.
func (m *Meter) Snapshot() (count int64, peak int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count, m.peak
}

// Reset clears the Meter.
func (m *Meter) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.count, m.peak, m.last = 0, 0, time.Time{}
}
