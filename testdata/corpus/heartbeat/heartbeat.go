// Package heartbeat tracks the heartbeats of named services.
package heartbeat

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Monitor records when each service last sent a heartbeat and how many it
// sent. A Monitor is safe for concurrent use by multiple goroutines.
type Monitor struct {
	started time.Time

	mu    sync.Mutex
	last  map[string]time.Time
	beats map[string]int

	// Written under mu, read without it.
	total   atomic.Int64 // heartbeats received in all
	latest  atomic.Int64 // time of the latest heartbeat, since started
	longest atomic.Int64 // longest gap between two heartbeats of a service
}

// NewMonitor returns a monitor that has seen no heartbeats.
func NewMonitor() *Monitor {
	return &Monitor{
		started: time.Now(),
		last:    make(map[string]time.Time),
		beats:   make(map[string]int),
	}
}

// Beat records a heartbeat of name and returns the time since its
// previous one, 0 for the first.
func (m *Monitor) Beat(name string) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	var gap time.Duration
	if prev, ok := m.last[name]; ok {
		gap = now.Sub(prev)
	}
	m.last[name] = now
	m.beats[name]++
	if int64(gap) > m.longest.Load() {
		m.longest.Store(int64(gap))
	}
	m.total.Add(1)
	m.latest.Store(int64(now.Sub(m.started)))
	return gap
}

// Age returns the time since the last heartbeat of name, -1 when it has
// sent none.
func (m *Monitor) Age(name string) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	prev, ok := m.last[name]
	if !ok {
		return -1
	}
	return time.Since(prev)
}

// Beats returns the number of heartbeats name has sent.
func (m *Monitor) Beats(name string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.beats[name]
}

// Total returns the number of heartbeats received from all services,
// forgotten ones included.
func (m *Monitor) Total() int { return int(m.total.Load()) }

// Idle returns the time since the latest heartbeat of any service, or
// since the monitor was created when there has been none.
func (m *Monitor) Idle() time.Duration {
	return time.Since(m.started) - time.Duration(m.latest.Load())
}

// Longest returns the longest time between two consecutive heartbeats of
// one service.
func (m *Monitor) Longest() time.Duration { return time.Duration(m.longest.Load()) }

// Forget removes name and reports whether it had sent heartbeats.
func (m *Monitor) Forget(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.last[name]
	delete(m.last, name)
	delete(m.beats, name)
	return ok
}

// Names returns the names that have sent heartbeats, sorted.
func (m *Monitor) Names() []string {
	m.mu.Lock()
	names := make([]string, 0, len(m.last))
	for name := range m.last {
		names = append(names, name)
	}
	m.mu.Unlock()
	sort.Strings(names)
	return names
}
