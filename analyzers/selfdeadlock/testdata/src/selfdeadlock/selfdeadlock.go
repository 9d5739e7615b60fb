package selfdeadlock

import (
	"sync"

	"locklib"
)

type Cache struct {
	mu  sync.Mutex
	rw  sync.RWMutex
	m   map[string]int
	max int
}

func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Put calls Len with c.mu held.
func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.Len() > c.max { // want `c.mu is locked \(in Len\) while already held \(locked at selfdeadlock.go:24:11\)`
		return
	}
	c.m[k] = v
}

func (c *Cache) Twice() {
	c.mu.Lock()
	c.mu.Lock() // want `c.mu is locked while already held`
	c.mu.Unlock()
	c.mu.Unlock()
}

func (c *Cache) ReadThenWrite() {
	c.rw.RLock()
	defer c.rw.RUnlock()
	c.rw.Lock() // want `c.rw is locked while already held \(read-locked at`
	c.rw.Unlock()
}

// Across packages: locklib.WithLock locks its argument.
func (c *Cache) With() {
	c.mu.Lock()
	defer c.mu.Unlock()
	locklib.WithLock(&c.mu, func() {}) // want `c.mu is locked \(in WithLock\) while already held`
}

type Embeds struct {
	locklib.Counter
}

// Across packages through a promoted mutex.
func (e *Embeds) Bump() {
	e.Lock()
	defer e.Unlock()
	e.Inc() // want `e.Counter.Mutex is locked \(in Inc\) while already held`
}

// Correct code below: no diagnostics.

func (c *Cache) Sequential() {
	c.mu.Lock()
	c.m["a"] = 1
	c.mu.Unlock()
	c.mu.Lock()
	c.m["b"] = 2
	c.mu.Unlock()
}

func (c *Cache) Branches(b bool) {
	if b {
		c.mu.Lock()
	}
	c.mu.Lock() // not held on every path: not reported
	c.mu.Unlock()
}

func (c *Cache) Readers() {
	c.rw.RLock()
	defer c.rw.RUnlock()
	_ = c.m["a"]
}

func (c *Cache) Two(o *Cache) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o.mu.Lock() // another object
	o.mu.Unlock()
}

func (c *Cache) Try() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.TryLock() { // TryLock never blocks
		c.mu.Unlock()
	}
}

func (c *Cache) Background() {
	c.mu.Lock()
	defer c.mu.Unlock()
	go c.Len() // another goroutine
}

func (c *Cache) unlockFirst() { c.mu.Unlock() }

func (c *Cache) Helper() {
	c.mu.Lock()
	c.unlockFirst()
	c.mu.Lock()
	c.mu.Unlock()
}

func (c *Cache) Callback() {
	locklib.Locked(&c.mu, func() { c.max = 1 })
}

func (c *Cache) Deferred() {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer func() { _ = c.max }()
}

func (c *Cache) Loop() {
	for i := 0; i < 3; i++ {
		c.mu.Lock()
		c.max++
		c.mu.Unlock()
	}
}

// A callee that deadlocks on its own is reported there, not in callers.
func (c *Cache) CallsTwice() { c.Twice() }

// A goroutine started with a lock held does not hold it.
func (c *Cache) startLocked() { go c.Len() }

func (c *Cache) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.startLocked()
}

// waitLocked drops the caller's lock while it blocks.
func (c *Cache) waitLocked(ch chan int) {
	c.mu.Unlock()
	defer c.mu.Lock()
	<-ch
}

func (c *Cache) Wait(ch chan int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waitLocked(ch)
}

// upgradeRLocked upgrades the caller's read lock.
func (c *Cache) upgradeRLocked() {
	c.rw.RUnlock()
	defer c.rw.RLock()
	c.rw.Lock()
	defer c.rw.Unlock()
	c.max++
}

func (c *Cache) Upgrade() {
	c.rw.RLock()
	defer c.rw.RUnlock()
	c.upgradeRLocked()
}

// maybeWait drops the caller's lock on one path only.
func (c *Cache) maybeWait(ch chan int) {
	if ch != nil {
		c.waitLocked(ch)
	}
}

func (c *Cache) MaybeWait(ch chan int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.maybeWait(ch)
}
