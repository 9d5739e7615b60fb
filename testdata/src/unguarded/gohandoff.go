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
