package unguarded

import "sync"

// Summary hands its lock to the goroutine that flushes its cold buffer:
// asyncFlush locks mtx and the goroutine unlocks it once flushColdBuf is
// done, so flushColdBuf runs in that critical section. Silent.
type Summary struct {
	mtx  sync.Mutex
	hot  []int
	cold []int
	cnt  int
}

func (s *Summary) Observe(v int) {
	s.mtx.Lock()
	s.hot = append(s.hot, v)
	full := len(s.hot) > 8
	s.mtx.Unlock()
	if full {
		s.asyncFlush()
	}
}

func (s *Summary) asyncFlush() {
	s.mtx.Lock()
	s.hot, s.cold = s.cold[:0], s.hot
	go func() {
		s.flushColdBuf()
		s.mtx.Unlock()
	}()
}

func (s *Summary) flushColdBuf() {
	s.cnt += len(s.cold)
	s.cold = s.cold[:0]
}

func (s *Summary) Count() int {
	s.mtx.Lock()
	defer s.mtx.Unlock()
	return s.cnt
}

// Drain's goroutine runs drain without the lock: its starter releases
// the lock first. Reported.
type Drain struct {
	mu   sync.Mutex
	buf  []int
	seen int
}

func (d *Drain) Add(v int) {
	d.mu.Lock()
	d.buf = append(d.buf, v)
	d.seen++
	d.mu.Unlock()
}

func (d *Drain) Flush() {
	d.mu.Lock()
	n := len(d.buf)
	d.mu.Unlock()
	if n > 0 {
		go func() {
			d.drain()
		}()
	}
}

func (d *Drain) drain() {
	d.buf = d.buf[:0] // want `d.buf is written in drain without d.mu`
}

func (d *Drain) Seen() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seen + len(d.buf)
}

// Ticket hands its lock to a goroutine that unlocks it (go
// t.mu.Unlock()): the write after the go statement may run once the lock
// is released. Reported, as Turn's is.
type Ticket struct {
	mu   sync.Mutex
	next int
}

func (t *Ticket) Take() int {
	t.mu.Lock()
	n := t.next
	go t.mu.Unlock()
	t.next = n + 1 // want `t.next is written in Take without t.mu`
	return n
}

func (t *Ticket) Next() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.next
}

func (t *Ticket) Reset() {
	t.mu.Lock()
	t.next = 0
	t.mu.Unlock()
}

// Turn hands its lock to a goroutine that runs a function that unlocks
// it. Reported.
type Turn struct {
	mu   sync.Mutex
	next int
}

func (t *Turn) Take() int {
	t.mu.Lock()
	n := t.next
	go t.release()
	t.next = n + 1 // want `t.next is written in Take without t.mu`
	return n
}

func (t *Turn) release() { t.mu.Unlock() }

func (t *Turn) Next() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.next
}

func (t *Turn) Reset() {
	t.mu.Lock()
	t.next = 0
	t.mu.Unlock()
}
