// Task groups over a sync.WaitGroup, whose Wait passes the WaitGroup's
// rule on to its callers: a Go with no task running must happen before
// Wait. Group is correct: the race sync.WaitGroup reports between such
// a Go and Wait is noted, not reported. CountingGroup, its twin, counts
// its tasks without a lock: that race of Go and Wait is its defect. So
// is Pool's race of the same kind between Submit and StopAndWait, a
// method that stops the pool while tasks are submitted.

package objects

import (
	"sync"
	"sync/atomic"
)

// Group runs tasks and waits for them, keeping the first error. As with
// a sync.WaitGroup, a Go with no task running must happen before Wait.
type Group struct {
	wg  sync.WaitGroup
	mu  sync.Mutex
	err error
}

// NewGroup returns a group with no task.
func NewGroup() *Group { return &Group{} }

// Go runs f in a goroutine of the group.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if f == nil {
			return
		}
		if err := f(); err != nil {
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	}()
}

// Wait waits for the group's tasks and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err // ordered after the tasks by the WaitGroup
}

// CountingGroup runs tasks, counts them and waits for them.
type CountingGroup struct {
	wg sync.WaitGroup
	mu sync.Mutex
	n  int
}

// NewCountingGroup returns a group with no task.
func NewCountingGroup() *CountingGroup { return &CountingGroup{} }

// Go runs f in a goroutine of the group.
func (g *CountingGroup) Go(f func()) {
	g.n++ // the race
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if f != nil {
			f()
		}
	}()
}

// Wait waits for the group's tasks and returns how many it ran.
func (g *CountingGroup) Wait() int {
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

// Pool runs tasks until StopAndWait, keeping the first error. A Submit
// that passed its check of stopped adds to the WaitGroup that
// StopAndWait waits on, at zero: a race sync.WaitGroup reports, and a
// defect of the pool, whose StopAndWait may run while tasks are
// submitted (its name is not Wait: it passes no rule on to its callers).
type Pool struct {
	wg      sync.WaitGroup
	stopped atomic.Bool
	mu      sync.Mutex
	err     error
}

// NewPool returns a pool with no task.
func NewPool() *Pool { return &Pool{} }

// Submit runs f in a goroutine of the pool, unless it is stopped.
func (p *Pool) Submit(f func() error) bool {
	if p.stopped.Load() {
		return false
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if f == nil {
			return
		}
		if err := f(); err != nil {
			p.mu.Lock()
			if p.err == nil {
				p.err = err
			}
			p.mu.Unlock()
		}
	}()
	return true
}

// StopAndWait stops the pool, waits for its tasks and returns the first
// error.
func (p *Pool) StopAndWait() error {
	p.stopped.Store(true)
	p.wg.Wait()
	return p.err // ordered after the tasks by the WaitGroup
}
