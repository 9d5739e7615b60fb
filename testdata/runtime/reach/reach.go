// Package reach holds types depcon test must obtain and test with a
// working object, each with a race: behind a constructor that returns an
// interface of another package, a constructor that validates its
// arguments, a registry refusing duplicate names, a constructor with two
// results, a method taking a receive-only channel, an unlocked Close, an
// option that enables the racy path, settings with a required func, and a
// constructor whose goroutine dies on small intervals, a factory
// parameter the package has a function for, and a method whose object's
// ticker dies on small intervals.
// Store's lock-off switch must never be called: Store is correct.
package reach

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// flusher is unexported; NewFlusher returns it as an io.WriteCloser.
type flusher struct {
	mu  sync.Mutex
	buf []byte
	n   int
}

// NewFlusher returns a flusher.
func NewFlusher() io.WriteCloser { return &flusher{} }

// Write appends under the lock, and counts without it.
func (f *flusher) Write(p []byte) (int, error) {
	f.mu.Lock()
	f.buf = append(f.buf, p...)
	f.mu.Unlock()
	f.n++ // the race
	return len(p), nil
}

// Close drops the buffer under the lock.
func (f *flusher) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buf = nil
	return nil
}

// Pool is a pool whose size must be a power of two of at least 8.
type Pool struct {
	mu    sync.Mutex
	slots []int
	hits  int
}

// NewPool returns a pool of size slots, or an error.
func NewPool(size int) (*Pool, error) {
	if size < 8 || size&(size-1) != 0 {
		return nil, fmt.Errorf("size %d: want a power of two of at least 8", size)
	}
	return &Pool{slots: make([]int, size)}, nil
}

// Get takes a slot under the lock, and counts without it.
func (p *Pool) Get() int {
	p.mu.Lock()
	v := p.slots[0]
	p.mu.Unlock()
	p.hits++ // the race
	return v
}

var (
	namesMu sync.Mutex
	names   = map[string]bool{}
)

// Meter is a named meter; names are unique in the process.
type Meter struct {
	mu    sync.Mutex
	count int
	last  int
}

// NewMeter registers a meter under name; a name taken panics.
func NewMeter(name string) *Meter {
	namesMu.Lock()
	defer namesMu.Unlock()
	if names[name] {
		panic("duplicate meter " + name)
	}
	names[name] = true
	return &Meter{}
}

// Mark counts under the lock, and records the last value without it.
func (m *Meter) Mark(v int) {
	m.mu.Lock()
	m.count++
	m.mu.Unlock()
	m.last = v // the race
}

// Group runs tasks under a context.
type Group struct {
	mu    sync.Mutex
	tasks int
	err   error
}

// WithContext returns a group and a context derived from ctx.
func WithContext(ctx context.Context) (*Group, context.Context) {
	if ctx == nil {
		panic("nil context")
	}
	return &Group{}, ctx
}

// Go counts a task under the lock and records its error without it.
func (g *Group) Go(err error) {
	g.mu.Lock()
	g.tasks++
	g.mu.Unlock()
	g.err = err // the race
}

// Watcher drains channels.
type Watcher struct {
	mu   sync.Mutex
	seen int
}

// NewWatcher returns a watcher.
func NewWatcher() *Watcher { return &Watcher{} }

// Watch counts one value, if one is ready, without the lock.
func (w *Watcher) Watch(ch <-chan int) {
	select {
	case <-ch:
	default:
	}
	w.seen++ // the race
}

// Seen reads the count under the lock.
func (w *Watcher) Seen() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen
}

// Conn is a connection whose Close forgets the lock Read takes.
type Conn struct {
	mu     sync.Mutex
	closed bool
	buf    []byte
}

// NewConn returns an open connection.
func NewConn() *Conn { return &Conn{buf: []byte("data")} }

// Read returns the buffer, nil once closed.
func (c *Conn) Read() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	return c.buf
}

// Close closes the connection, without the lock.
func (c *Conn) Close() {
	c.closed = true
	c.buf = nil
}

// Store is a map under a lock that NoLock turns off, for a caller that
// serialises its calls itself. It is correct: the races after NoLock
// are what its caller asked for.
type Store struct {
	mu     sync.Mutex
	nolock bool
	m      map[string]int
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{m: map[string]int{}} }

// NoLock is for a caller that serialises its calls itself.
func (s *Store) NoLock() { s.nolock = true }

// Get reads under the lock, unless it is off.
func (s *Store) Get(k string) int {
	if !s.nolock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	return s.m[k]
}

// Put writes under the lock, unless it is off.
func (s *Store) Put(k string, v int) {
	if !s.nolock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	s.m[k] = v
}

// Strict has a constructor that no generated arguments satisfy: its zero
// value is no working object, so Strict is not tested, and the report
// says so rather than "no violation found".
type Strict struct {
	mu sync.Mutex
	a  int
	b  int
}

// NewStrict returns a Strict, when b is a + 1001 and a is odd.
func NewStrict(a, b int) (*Strict, error) {
	if b != a+1001 || a%2 == 0 {
		return nil, fmt.Errorf("want b = a + 1001 and an odd a")
	}
	return &Strict{a: a, b: b}, nil
}

// Sum adds the two numbers under the lock.
func (s *Strict) Sum() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.a + s.b
}

// Set sets a without the lock.
func (s *Strict) Set(a int) { s.a = a }

// BatchOptions configure a Batcher.
type BatchOptions struct {
	// Stats enables the counting of batches, which has the race.
	Stats bool
}

// Batcher batches values; its race is on the path its Stats option
// enables.
type Batcher struct {
	mu      sync.Mutex
	opts    BatchOptions
	items   []int
	batches int
}

// NewBatcher returns a batcher.
func NewBatcher(opts BatchOptions) *Batcher { return &Batcher{opts: opts} }

// Add adds a value, and counts the batch without the lock when Stats is
// on.
func (b *Batcher) Add(v int) {
	b.mu.Lock()
	b.items = append(b.items, v)
	b.mu.Unlock()
	if b.opts.Stats {
		b.batches++ // the race
	}
}

// RecyclerSettings configure a Recycler.
type RecyclerSettings struct {
	// New makes a buffer; it is required.
	New func() []byte
}

// Recycler recycles buffers made by its settings' New.
type Recycler struct {
	mu    sync.Mutex
	new   func() []byte
	free  [][]byte
	total int
}

// NewRecycler returns a recycler, or an error without a New func.
func NewRecycler(s RecyclerSettings) (*Recycler, error) {
	if s.New == nil {
		return nil, fmt.Errorf("RecyclerSettings.New is required")
	}
	return &Recycler{new: s.New}, nil
}

// Get returns a free buffer or a new one, counting it without the lock.
func (r *Recycler) Get() []byte {
	r.mu.Lock()
	if n := len(r.free); n > 0 {
		b := r.free[n-1]
		r.free = r.free[:n-1]
		r.mu.Unlock()
		return b
	}
	r.mu.Unlock()
	r.total++ // the race
	return r.new()
}

// Put returns a buffer.
func (r *Recycler) Put(b []byte) {
	r.mu.Lock()
	r.free = append(r.free, b)
	r.mu.Unlock()
}

// Ticker counts ticks; each Tick waits for its interval, so an object
// made with a second-long interval leaves a few tests in the budget.
type Ticker struct {
	mu    sync.Mutex
	every time.Duration
	ticks int
	last  int
}

// NewTicker returns a ticker of the given interval, which New also
// waits for once.
func NewTicker(every time.Duration) *Ticker {
	time.Sleep(every)
	return &Ticker{every: every}
}

// Tick waits for the interval and counts, recording the count without
// the lock.
func (t *Ticker) Tick() {
	time.Sleep(t.every)
	t.mu.Lock()
	t.ticks++
	n := t.ticks
	t.mu.Unlock()
	t.last = n // the race
}

// Poller polls in a goroutine its constructor starts. The loop's ticker
// runs every interval less a 4 ms margin, and panics when that is not
// positive: the first object of a probe then kills the process from its
// own goroutine while the second is being built, which says nothing of
// process-wide state. Larger intervals build working pollers.
type Poller struct {
	mu    sync.Mutex
	polls int
	last  int
}

// NewPoller starts polling every everyMs milliseconds and waits 20 ms
// for the loop to settle.
func NewPoller(everyMs int) *Poller {
	p := &Poller{}
	go p.loop(time.Duration(everyMs) * time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	return p
}

// loop polls three times, the first after 30 ms.
func (p *Poller) loop(every time.Duration) {
	time.Sleep(30 * time.Millisecond)
	t := time.NewTicker(every - 4*time.Millisecond)
	defer t.Stop()
	for range 3 {
		<-t.C
	}
}

// Poll counts a poll under the lock, and records it without.
func (p *Poller) Poll() {
	p.mu.Lock()
	p.polls++
	n := p.polls
	p.mu.Unlock()
	p.last = n // the race
}

// Window counts events of a sliding window.
type Window interface {
	Add(n int64)
	Count() int64
}

// StopFunc stops a window.
type StopFunc func()

type localWindow struct{ n int64 }

func (w *localWindow) Add(n int64)  { w.n += n }
func (w *localWindow) Count() int64 { return w.n }

// NewLocalWindow returns a window kept in memory: the factory a Limiter
// is given.
func NewLocalWindow() (Window, StopFunc) { return &localWindow{}, func() {} }

// Limiter allows events while its window counts at most limit. Its
// factory must make a window: one returning none makes every Allow
// panic.
type Limiter struct {
	mu      sync.Mutex
	w       Window
	limit   int64
	allowed int
}

// NewLimiter returns a limiter of the window newWindow makes.
func NewLimiter(limit int64, newWindow func() (Window, StopFunc)) *Limiter {
	w, _ := newWindow()
	return &Limiter{w: w, limit: limit}
}

// Allow counts an event under the lock, and the events allowed without.
func (l *Limiter) Allow() bool {
	l.mu.Lock()
	l.w.Add(1)
	ok := l.w.Count() <= l.limit
	l.mu.Unlock()
	if ok {
		l.allowed++ // the race
	}
	return ok
}

// Rate counts hits. Its first Incr starts a ticker of a twentieth of its
// interval in a goroutine, which a zero or tiny interval makes panic:
// the call then ends the process from the object's goroutine, which says
// nothing of Incr; larger intervals work.
type Rate struct {
	mu       sync.Mutex
	interval time.Duration
	started  bool
	hits     int
}

// NewRate returns a counter over interval.
func NewRate(interval time.Duration) *Rate { return &Rate{interval: interval} }

// Incr counts a hit, starting the ticker at the first.
func (r *Rate) Incr() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started {
		r.started = true
		go r.tick(r.interval / 20)
	}
	r.hits++
}

func (r *Rate) tick(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	<-t.C
}

// Hits returns the hits, without the lock: the race.
func (r *Rate) Hits() int { return r.hits }
