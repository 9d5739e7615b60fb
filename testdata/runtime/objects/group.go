// Task groups over a sync.WaitGroup, whose Wait passes the WaitGroup's
// rule on to its callers: a Go with no task running must happen before
// Wait. Group is correct: the race sync.WaitGroup reports between such
// a Go and Wait is noted, not reported. CountingGroup, its twin, counts
// its tasks without a lock: that race of Go and Wait is its defect.

package objects

import "sync"

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
