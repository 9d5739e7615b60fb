// plan: AtomicWheel: |M|=6 pc=2 d=0; Crawler: |M|=3 pc=2 d=0; GoWheel: |M|=6 pc=4 d=0; Group: |M|=3 pc=2 d=0; LockedWheel: |M|=6 pc=2 d=0; Poller: |M|=10 pc=1 d=0; Ticker: |M|=6 pc=2 d=0; Wheel: |M|=6 pc=4 d=0

// Package wrapgo holds types whose Start runs a loop in a goroutine that
// a helper of the package starts for it: a WaitGroup wrapper's Wrap, an
// errgroup-style Go two calls deep, a spawn function, the Wrap of an
// embedded helper. The loop's accesses are Start's, made in a goroutine
// it starts, as they are in GoWheel, whose Start has a go statement of
// its own.
package wrapgo

import (
	"sync"
	"sync/atomic"
)

// group is a WaitGroup that starts the goroutines it waits for.
type group struct{ sync.WaitGroup }

// Wrap runs cb in a goroutine of the group.
func (g *group) Wrap(cb func()) {
	g.Add(1)
	go func() {
		cb()
		g.Done()
	}()
}

// Wheel advances its clock in the goroutine Start starts through Wrap,
// while Add reads the clock with no synchronisation: Add ∥ Start race.
type Wheel struct {
	now  int64
	tick chan int64
	exit chan struct{}
	wg   group
}

// Start runs the wheel's loop.
func (w *Wheel) Start() {
	w.wg.Wrap(func() {
		for {
			select {
			case t := <-w.tick:
				w.advance(t)
			case <-w.exit:
				return
			}
		}
	})
}

func (w *Wheel) advance(t int64) {
	if t > w.now {
		w.now = t
	}
}

// Add returns the time d after the wheel's clock.
func (w *Wheel) Add(d int64) int64 { return w.now + d }

// Stop stops the loop and waits for it.
func (w *Wheel) Stop() {
	close(w.exit)
	w.wg.Wait()
}

// GoWheel is Wheel with a go statement in Start.
type GoWheel struct {
	now  int64
	tick chan int64
	exit chan struct{}
	wg   sync.WaitGroup
}

// Start runs the wheel's loop.
func (w *GoWheel) Start() {
	w.wg.Add(1)
	go func() {
		for {
			select {
			case t := <-w.tick:
				w.advance(t)
			case <-w.exit:
				w.wg.Done()
				return
			}
		}
	}()
}

func (w *GoWheel) advance(t int64) {
	if t > w.now {
		w.now = t
	}
}

// Add returns the time d after the wheel's clock.
func (w *GoWheel) Add(d int64) int64 { return w.now + d }

// Stop stops the loop and waits for it.
func (w *GoWheel) Stop() {
	close(w.exit)
	w.wg.Wait()
}

// LockedWheel is Wheel with its clock under a lock on both sides.
type LockedWheel struct {
	mu   sync.Mutex
	now  int64
	tick chan int64
	exit chan struct{}
	wg   group
}

// Start runs the wheel's loop.
func (w *LockedWheel) Start() {
	w.wg.Wrap(func() {
		for {
			select {
			case t := <-w.tick:
				w.advance(t)
			case <-w.exit:
				return
			}
		}
	})
}

func (w *LockedWheel) advance(t int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if t > w.now {
		w.now = t
	}
}

// Add returns the time d after the wheel's clock.
func (w *LockedWheel) Add(d int64) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.now + d
}

// Stop stops the loop and waits for it.
func (w *LockedWheel) Stop() {
	close(w.exit)
	w.wg.Wait()
}

// AtomicWheel is Wheel with its clock accessed atomically on both sides.
type AtomicWheel struct {
	now  int64
	tick chan int64
	exit chan struct{}
	wg   group
}

// Start runs the wheel's loop.
func (w *AtomicWheel) Start() {
	w.wg.Wrap(func() {
		for {
			select {
			case t := <-w.tick:
				atomic.StoreInt64(&w.now, t)
			case <-w.exit:
				return
			}
		}
	})
}

// Add returns the time d after the wheel's clock.
func (w *AtomicWheel) Add(d int64) int64 { return atomic.LoadInt64(&w.now) + d }

// Stop stops the loop and waits for it.
func (w *AtomicWheel) Stop() {
	close(w.exit)
	w.wg.Wait()
}

// Group runs functions in goroutines and waits for them, as an
// errgroup does: Go hands f to start, which runs it in a goroutine.
type Group struct {
	wg  sync.WaitGroup
	err error
}

// Go runs f in a goroutine of the group.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	g.start(f)
}

func (g *Group) start(f func() error) { go g.run(f) }

func (g *Group) run(f func() error) {
	defer g.wg.Done()
	if err := f(); err != nil {
		g.err = err
	}
}

// Wait waits for the group's goroutines.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}

// Crawler counts in the goroutine that its Group runs the pages that
// Pages reads: Crawl ∥ Pages race.
type Crawler struct {
	pages int
	g     Group
}

// Crawl crawls in a goroutine.
func (c *Crawler) Crawl() {
	c.g.Go(func() error {
		c.pages++
		return nil
	})
}

// Pages returns the count.
func (c *Crawler) Pages() int { return c.pages }

// spawn runs f in a goroutine.
func spawn(f func()) { go f() }

// Poller has no synchronisation of its own: it is concurrent through the
// goroutine Start spawns only, which writes the polls that Polls reads.
type Poller struct {
	polls int
	name  string
}

// Start polls in a goroutine.
func (p *Poller) Start() { spawn(func() { p.polls++ }) }

// Polls returns the count.
func (p *Poller) Polls() int { return p.polls }

// Rename renames the poller.
func (p *Poller) Rename(n string) { p.name = n }

// Name returns the name.
func (p *Poller) Name() string { return p.name }

// Ticker runs its loop, a method value, through the Wrap of the group it
// embeds.
type Ticker struct {
	group
	ticks int
}

// Start runs the loop.
func (t *Ticker) Start() { t.Wrap(t.loop) }

func (t *Ticker) loop() { t.ticks++ }

// Ticks returns the count.
func (t *Ticker) Ticks() int { return t.ticks }
