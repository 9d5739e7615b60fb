package unguarded

import "sync"

// RingBuf's readErr takes the lock only when its caller says it does not
// hold it: Read calls it holding the lock with true, Err without it with
// false. Each call has the effect of readErr for its argument: silent.
type RingBuf struct {
	mu  sync.Mutex
	err error
	n   int
}

func (r *RingBuf) readErr(locked bool) error {
	if !locked {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	return r.err
}

func (r *RingBuf) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n += len(p)
	return len(p), r.readErr(true)
}

func (r *RingBuf) Err() error { return r.readErr(false) }

func (r *RingBuf) SetErr(e error) {
	r.mu.Lock()
	r.err = e
	r.mu.Unlock()
}

// LeakyBuf is RingBuf with a caller that passes true without holding the
// lock: its read of err is unguarded.
type LeakyBuf struct {
	mu  sync.Mutex
	err error
}

func (r *LeakyBuf) readErr(locked bool) error {
	if !locked {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	return r.err
}

func (r *LeakyBuf) Err() error { return r.readErr(false) }

func (r *LeakyBuf) Peek() error {
	return r.readErr(true) // want `r.err is read \(in readErr\) in Peek without r.mu`
}

func (r *LeakyBuf) SetErr(e error) {
	r.mu.Lock()
	r.err = e
	r.mu.Unlock()
}

// FlagBuf tests its parameter by comparing it with a constant, and its
// lock is taken on the else branch: silent.
type FlagBuf struct {
	mu   sync.Mutex
	size int
}

func (b *FlagBuf) grow(held bool, n int) {
	if held == true {
		b.size += n
	} else {
		b.mu.Lock()
		b.size += n
		b.mu.Unlock()
	}
}

func (b *FlagBuf) Grow(n int) { b.grow(false, n) }

func (b *FlagBuf) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.size = 0
	b.grow(true, 1)
}

// GrowAny passes a variable, not a constant: the write has grow's
// general effect, made without the lock on one of its paths, and is
// reported.
func (b *FlagBuf) GrowAny(held bool, n int) {
	b.grow(held, n) // want `b.size is written \(in grow\) in GrowAny without b.mu`
}
