// plan: Batch: |M|=6 pc=3 d=0; Cache: |M|=6 pc=2 d=0; Gauge: |M|=6 pc=1 d=0; Office: |M|=15 pc=7 d=0; Pool: |M|=6 pc=3 d=0; Queue: |M|=6 pc=1 d=0; Ring: |M|=3 pc=2 d=0

// Package perpair decides parallelism per pair of conflicting accesses:
// one access outside the lock makes a method parallel to the others only
// where that access conflicts; and a method that releases the lock between
// a check and an act stays dependent with the writers of what it checks.
package perpair

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Cache counts its puts outside the lock.
type Cache struct {
	mu    sync.Mutex
	items map[string]int
	puts  int
}

// Put stores k under the lock, then counts the put without it.
func (c *Cache) Put(k string) {
	c.mu.Lock()
	c.items[k] = 1
	c.mu.Unlock()
	c.puts++
}

// Get reads the map under the lock: independent of Put, whose map access
// holds the lock too.
func (c *Cache) Get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.items[k]
}

// Puts reads the counter under the lock, which Put does not hold when it
// writes it.
func (c *Cache) Puts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.puts
}

// Pool hands out its items.
type Pool struct {
	mu    sync.Mutex
	items []int
}

// Take checks that the pool is not empty, releases the lock, and takes the
// last item under the lock again: a check-then-act.
func (p *Pool) Take() int {
	p.mu.Lock()
	n := len(p.items)
	p.mu.Unlock()
	if n == 0 {
		return -1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	x := p.items[n-1]
	p.items = p.items[:n-1]
	return x
}

// Put appends an item under the lock.
func (p *Pool) Put(x int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.items = append(p.items, x)
}

// TakeLocked is the negative twin of Take: one critical section, so it is
// independent of Put (but not of Take, which it may empty between Take's
// check and act).
func (p *Pool) TakeLocked() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.items)
	if n == 0 {
		return -1
	}
	x := p.items[n-1]
	p.items = p.items[:n-1]
	return x
}

// Queue checks that it is open in one critical section and sends in
// another: a Close in between makes Put send on a closed channel.
type Queue struct {
	mu     sync.Mutex
	ch     chan int
	closed bool
}

// Put sends v unless the queue is closed.
func (q *Queue) Put(v int) {
	q.mu.Lock()
	closed := q.closed
	q.mu.Unlock()
	if closed {
		return
	}
	runtime.Gosched()
	q.mu.Lock()
	defer q.mu.Unlock()
	select {
	case q.ch <- v:
	default:
	}
}

// PutLocked is the negative twin of Put: one critical section, so it is
// independent of Close.
func (q *Queue) PutLocked(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	select {
	case q.ch <- v:
	default:
	}
}

// Close closes the queue.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.ch)
	}
}

// Batch adds items one critical section at a time.
type Batch struct {
	mu    sync.Mutex
	items []int
}

// AddAll adds the items, locking once per item: another method may run
// between two of them.
func (b *Batch) AddAll(xs []int) {
	for _, x := range xs {
		b.mu.Lock()
		b.items = append(b.items, x)
		b.mu.Unlock()
	}
}

// Add adds one item.
func (b *Batch) Add(x int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.items = append(b.items, x)
}

// Len returns the number of items.
func (b *Batch) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.items)
}

// Office checks and acts through helpers, each taking the lock itself:
// Sell checks in Open's critical section and acts in take's, so another
// Sell, or a Recall, may run between them.
type Office struct {
	mu     sync.Mutex
	stock  []int
	closed bool
}

// Open reports whether the office is open.
func (o *Office) Open() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.closed
}

// take removes the first item; the office is open.
func (o *Office) take() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	x := o.stock[0]
	o.stock = o.stock[1:]
	if len(o.stock) == 0 {
		o.closed = true
	}
	return x
}

// Sell checks through Open and acts through take: two critical sections.
func (o *Office) Sell() int {
	if !o.Open() {
		return -1
	}
	return o.take()
}

// SellLocked is the negative twin of Sell: one helper, one critical
// section, so two of them are independent (each may still run between
// Sell's check and act).
func (o *Office) SellLocked() int {
	return o.takeIfOpen()
}

// takeIfOpen checks and acts in one critical section.
func (o *Office) takeIfOpen() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return -1
	}
	x := o.stock[0]
	o.stock = o.stock[1:]
	o.closed = len(o.stock) == 0
	return x
}

// Recall empties the stock and closes, in one critical section.
func (o *Office) Recall() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stock = nil
	o.closed = true
}

// Refill restocks a closed office: a check through Open and an act in its
// own critical section, so with Sell each may run between the other's
// check and act (two evidences).
func (o *Office) Refill(xs []int) {
	if o.Open() {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stock = append(o.stock[:0], xs...)
	o.closed = len(xs) == 0
}

// Ring takes its buffer out in one critical section and installs the new
// one in the next: a Push between those two finds no buffer, while one
// between the first two (the copy) does no harm. Each gap is evidence.
type Ring struct {
	mu   sync.Mutex
	buf  []int
	next int
}

// Resize copies the values, takes the buffer out, then installs a new one:
// three critical sections.
func (r *Ring) Resize(n int) {
	r.mu.Lock()
	vs := append([]int(nil), r.buf...)
	r.mu.Unlock()
	buf := make([]int, n+1)
	copy(buf, vs)
	r.mu.Lock()
	r.buf = nil
	r.mu.Unlock()
	r.mu.Lock()
	r.buf = buf
	r.mu.Unlock()
}

// Push stores x in one critical section.
func (r *Ring) Push(x int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf[r.next%len(r.buf)] = x
	r.next++
}

// Gauge's Snapshot reads two counters in separate atomic loads, which
// Record writes in separate atomic additions: a snapshot whose parts may
// not add up. Count reads one counter, and two Records commute.
type Gauge struct {
	n, sum atomic.Int64
}

func (g *Gauge) Record(v int64) {
	g.n.Add(1)
	g.sum.Add(v)
}

func (g *Gauge) Snapshot() (int64, int64) { return g.n.Load(), g.sum.Load() }

func (g *Gauge) Count() int64 { return g.n.Load() }
