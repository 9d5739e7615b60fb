package unguarded

import (
	"sync"
	"sync/atomic"
)

// Check-then-lock: a guarded field read before its lock is taken.

type Queue struct {
	mu     sync.Mutex
	items  []int
	closed bool
	m      map[string]int
	done   chan struct{}
}

func (q *Queue) Push(x int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, x)
}

func (q *Queue) Drain() []int {
	if len(q.items) == 0 { // want `q.items is read in Drain before q.mu is locked, but written with q.mu held \(e.g. in Push, early.go:\d+:\d+\): check-then-lock data race`
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.items
	q.items = nil
	return out
}

func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
}

func (q *Queue) Send(x int) bool {
	if q.closed { // want `q.closed is read in Send before q.mu is locked, but written with q.mu held \(e.g. in Close`
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, x)
	return true
}

func (q *Queue) Set(k string, v int) {
	q.mu.Lock()
	q.m[k] = v
	q.mu.Unlock()
}

func (q *Queue) Flush() {
	if len(q.m) == 0 { // want `len\(q.m\) is read in Flush before q.mu is locked, but written with q.mu held \(e.g. in Set`
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	clear(q.m)
}

func (q *Queue) Lookup(k string) int {
	if v, ok := q.m[k]; ok { // want `q.m\[\*\] is read in Lookup before q.mu is locked`
		return v
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.m[k]
}

func (q *Queue) lock() { q.mu.Lock() }

func (q *Queue) isClosed() bool { return q.closed }

// Stop checks through a helper and locks through another.
func (q *Queue) Stop() {
	if q.isClosed() { // want `q.closed is read \(in isClosed\) in Stop before q.mu is locked`
		return
	}
	q.lock()
	q.closed = true
	q.mu.Unlock()
}

// Words loads its list on first use through a helper that checks the flag
// before locking: reported once, in the helper.
type Words struct {
	mu     sync.Mutex
	loaded bool
	words  map[string]bool
}

func (w *Words) load() {
	if w.loaded { // want `w.loaded is read in load before w.mu is locked, but written with w.mu held \(e.g. in Has`
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.loaded {
		return
	}
	w.words = map[string]bool{"go": true}
	w.loaded = true
}

func (w *Words) Has(s string) bool {
	w.load()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.words[s]
}

func (w *Words) Len() int {
	w.load()
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.words)
}

// Correct code: no diagnostics.

// Lexicon checks its flag under the lock.
type Lexicon struct {
	mu     sync.Mutex
	loaded bool
	words  map[string]bool
}

func (l *Lexicon) loadLocked() {
	if l.loaded {
		return
	}
	l.words = map[string]bool{"go": true}
	l.loaded = true
}

func (l *Lexicon) Has(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loadLocked()
	return l.words[s]
}

func (l *Lexicon) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loadLocked()
	return len(l.words)
}

// Fast paths on atomic values are double-checked locking done right.
type Pool struct {
	mu    sync.Mutex
	n     atomic.Int64
	state int32
	ready atomic.Bool
	val   int
	hits  int
	size  int
	free  []int
}

func NewPool(size int) *Pool { return &Pool{size: size} }

func (p *Pool) Put(x int) {
	if p.n.Load() >= 8 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = append(p.free, x)
	p.n.Add(1)
}

func (p *Pool) Open() {
	if atomic.LoadInt32(&p.state) == 1 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	atomic.StoreInt32(&p.state, 1)
}

func (p *Pool) Init() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ready.Load() {
		p.val = 42
		p.ready.Store(true)
	}
}

// Peek reads val after the atomic load that publishes it.
func (p *Pool) Peek() int {
	v := 0
	if p.ready.Load() {
		v = p.val
	}
	p.mu.Lock()
	p.hits++
	p.mu.Unlock()
	return v
}

// Get reads size, which no method writes, before locking.
func (p *Pool) Get() int {
	if p.size == 0 {
		return -1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) == 0 {
		return 0
	}
	x := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return x
}

// Conn's state is written holding both locks: reading it under one of
// them is enough.
type Conn struct {
	mu      sync.Mutex
	stateMu sync.Mutex
	state   int
	buf     []byte
}

func (c *Conn) SetState(s int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stateMu.Lock()
	c.state = s
	c.stateMu.Unlock()
}

func (c *Conn) State() int {
	c.stateMu.Lock()
	defer c.stateMu.Unlock()
	return c.state
}

func (c *Conn) Write(b []byte) {
	c.stateMu.Lock()
	st := c.state
	c.stateMu.Unlock()
	if st != 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = append(c.buf, b...)
}

// Result waits on a channel closed after err is set: the read is
// synchronised before the lock is taken.
type Result struct {
	mu    sync.Mutex
	ready chan struct{}
	err   error
	n     int
}

func (r *Result) Finish(err error) {
	r.mu.Lock()
	r.err = err
	r.mu.Unlock()
	close(r.ready)
}

func (r *Result) Wait() error {
	<-r.ready
	if r.err != nil {
		return r.err
	}
	r.mu.Lock()
	r.n++
	r.mu.Unlock()
	return nil
}

// Report reads n in a deferred call: after the lock is released.
func (r *Result) Report() {
	defer r.log()
	r.mu.Lock()
	r.n++
	r.mu.Unlock()
}

func (r *Result) log() { _ = r.n }

// Worker's stage is written only by its own goroutine (under the lock, so
// that other goroutines can read it): the goroutine reads it without.
type Worker struct {
	mu    sync.Mutex
	stage int
}

func NewWorker() *Worker {
	w := &Worker{}
	go w.run()
	return w
}

func (w *Worker) run() {
	if w.stage == 0 {
		w.mu.Lock()
		w.stage = 1
		w.mu.Unlock()
	}
}

func (w *Worker) Stage() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stage
}

// Options upgrades its caller's read lock to check and fill a field: the
// helper is called with the read lock held.
type Options struct {
	mu   sync.RWMutex
	keys []string
}

func (o *Options) keysRLocked() []string {
	if len(o.keys) > 0 {
		return o.keys
	}
	o.mu.RUnlock()
	defer o.mu.RLock()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.keys) == 0 {
		o.keys = []string{"default"}
	}
	return o.keys
}

func (o *Options) Keys() []string {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.keysRLocked()
}

func (o *Options) SetKeys(keys []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.keys = keys
}
