package lockleak

import (
	"fmt"
	"sync"
)

// Locks of objects reached through another object, held on a return
// inside a loop, on an early return, on a continue in a switch and on a
// break out of an inner loop; each next to its correct twin.

type shard struct {
	mu   sync.RWMutex
	keys map[string]bool
}

type Catalog struct {
	shards map[string]*shard
	main   *shard
}

// Check returns on the first missing key with the shard it took out of
// the map still read-locked.
func (c *Catalog) Check(name string, keys []string) error {
	sh := c.shards[name]
	sh.mu.RLock()
	for _, k := range keys {
		if !sh.keys[k] {
			return fmt.Errorf("%s: no key %q", name, k) // want `c.shards\[name\].mu is still locked at this return \(read-locked at recall.go:26\), but the other returns of Check release it`
		}
	}
	sh.mu.RUnlock()
	return nil
}

func (c *Catalog) CheckOK(name string, keys []string) error {
	sh := c.shards[name]
	sh.mu.RLock()
	for _, k := range keys {
		if !sh.keys[k] {
			sh.mu.RUnlock()
			return fmt.Errorf("%s: no key %q", name, k)
		}
	}
	sh.mu.RUnlock()
	return nil
}

// first returns the first present key with c.main still read-locked: no
// caller releases it, so it is no lock helper that reports with its
// result that it returns holding the lock.
func (c *Catalog) first(keys []string) (string, bool) {
	c.main.mu.RLock()
	for _, k := range keys {
		if c.main.keys[k] {
			return k, true // want `c.main.mu is still locked at this return \(read-locked at recall.go:53\), but the other returns of first release it`
		}
	}
	c.main.mu.RUnlock()
	return "", false
}

func (c *Catalog) First(keys []string) string {
	k, _ := c.first(keys)
	return k
}

func (c *Catalog) Has(keys []string) bool {
	_, ok := c.first(keys)
	return ok
}

// firstLocked is such a helper: its caller releases c.main.mu after a
// true result.
func (c *Catalog) firstLocked(keys []string) (string, bool) {
	c.main.mu.RLock()
	for _, k := range keys {
		if c.main.keys[k] {
			return k, true
		}
	}
	c.main.mu.RUnlock()
	return "", false
}

func (c *Catalog) Count(keys []string) int {
	k, ok := c.firstLocked(keys)
	if !ok {
		return 0
	}
	n := len(k) + len(c.main.keys)
	c.main.mu.RUnlock()
	return n
}

// A wrapper passes the helper's result on to its own callers.
func (c *Catalog) firstLockedAgain(keys []string) (string, bool) {
	return c.firstLocked(keys)
}

func (c *Catalog) Len(keys []string) int {
	k, ok := c.firstLockedAgain(keys)
	if !ok {
		return 0
	}
	c.main.mu.RUnlock()
	return len(k)
}

// A type that embeds its mutex, kept in a map of another object.
type devices struct {
	sync.Mutex
	m map[string]int
}

type Manager struct {
	devices map[string]*devices
}

// Allocate returns early with the devices it took out of the map still
// locked.
func (m *Manager) Allocate(kind, id string) {
	d := m.devices[kind]
	d.Lock()
	if _, busy := d.m[id]; busy {
		return // want `m.devices\[kind\].Mutex is still locked at this return \(locked at recall.go:124\), but the other returns of Allocate release it`
	}
	d.m[id] = 1
	d.Unlock()
}

func (m *Manager) AllocateOK(kind, id string) {
	d := m.devices[kind]
	d.Lock()
	if _, busy := d.m[id]; busy {
		d.Unlock()
		return
	}
	d.m[id] = 1
	d.Unlock()
}

// inUse reports a busy device with d still locked, and no caller
// releases it.
func (d *devices) inUse(id string) bool {
	d.Lock()
	if _, busy := d.m[id]; busy {
		return true // want `d.Mutex is still locked at this return \(locked at recall.go:146\), but the other returns of inUse release it`
	}
	d.Unlock()
	return false
}

func (m *Manager) Busy(kind, id string) bool {
	return m.devices[kind].inUse(id)
}

// A continue in a switch case keeps the lock: the next iteration locks
// it again.
type Queue struct {
	mu    sync.Mutex
	items []int
	done  int
}

func (q *Queue) Drain(n int) {
	for i := 0; i < n; i++ {
		q.mu.Lock()
		switch {
		case len(q.items) == 0:
			continue // want `q.mu is still locked \(locked at recall.go:168\) when the loop continues to the next iteration, but other iterations release it; the next iteration locks it again at recall.go:168`
		case q.items[0] < 0:
			q.items = q.items[1:]
		}
		q.done++
		q.mu.Unlock()
	}
}

func (q *Queue) DrainOK(n int) {
	for i := 0; i < n; i++ {
		q.mu.Lock()
		switch {
		case len(q.items) == 0:
			q.mu.Unlock()
			continue
		case q.items[0] < 0:
			q.items = q.items[1:]
		}
		q.done++
		q.mu.Unlock()
	}
}

// A break out of the inner loop keeps the lock, and the outer loop
// enters the inner one again, which locks it.
func (q *Queue) Pump(batches [][]int) {
	for {
		for _, b := range batches {
			q.mu.Lock()
			if len(b) == 0 {
				break // want `q.mu is still locked \(locked at recall.go:200\) when this break leaves the loop, and the enclosing loop locks it again at recall.go:200 before releasing it`
			}
			q.items = append(q.items, b...)
			q.mu.Unlock()
		}
	}
}

func (q *Queue) PumpOK(batches [][]int) {
	for {
		for _, b := range batches {
			q.mu.Lock()
			if len(b) == 0 {
				q.mu.Unlock()
				break
			}
			q.items = append(q.items, b...)
			q.mu.Unlock()
		}
	}
}

// The break keeps the lock for the code after the loop, which releases
// it.
func (q *Queue) PumpAfter(batches [][]int) {
	for {
		held := false
		for _, b := range batches {
			q.mu.Lock()
			if len(b) == 0 {
				held = true
				break
			}
			q.items = append(q.items, b...)
			q.mu.Unlock()
		}
		if held {
			q.done++
			q.mu.Unlock()
		}
	}
}
