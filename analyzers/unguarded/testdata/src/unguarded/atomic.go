package unguarded

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Mixed atomic and plain accesses of one field.

type Stats struct {
	mu     sync.Mutex
	hits   int64
	misses int64
	last   int64
	cur    unsafe.Pointer
	counts []int64
}

func (s *Stats) Hit() { atomic.AddInt64(&s.hits, 1) }

func (s *Stats) Hits() int64 {
	return s.hits // want `s.hits is read in Hits without sync/atomic, but written atomically in Hit \(atomic.go:\d+:\d+\): mixing atomic and plain accesses is a data race`
}

func (s *Stats) Reset() {
	s.hits = 0 // want `s.hits is written in Reset without sync/atomic, but written atomically in Hit`
}

func (s *Stats) Miss() int64 { return atomic.AddInt64(&s.misses, 1) }

// A lock on the plain side does not help: the atomic side takes none.
func (s *Stats) ResetMisses() {
	s.mu.Lock()
	s.misses = 0 // want `s.misses is written in ResetMisses without sync/atomic, but written atomically in Miss .*\(s.mu is held here, but not at the atomic access\)`
	s.mu.Unlock()
}

func (s *Stats) SetLast(v int64) { atomic.StoreInt64(&s.last, v) }

func (s *Stats) load() int64 { return s.last }

func (s *Stats) Last() int64 {
	return s.load() // want `s.last is read \(in load\) in Last without sync/atomic, but written atomically in SetLast`
}

func (s *Stats) Swap(p unsafe.Pointer) unsafe.Pointer { return atomic.SwapPointer(&s.cur, p) }

func (s *Stats) Current() unsafe.Pointer {
	return s.cur // want `s.cur is read in Current without sync/atomic, but written atomically in Swap`
}

func (s *Stats) Count(i int) { atomic.AddInt64(&s.counts[i], 1) }

func (s *Stats) Counts(i int) int64 {
	return s.counts[i] // want `s.counts\[\*\] is read in Counts without sync/atomic, but written atomically in Count`
}

// Lazy checks its flag atomically, and sets it plainly under its lock: the
// atomic load outside the lock races with the plain store.
type Lazy struct {
	mu   sync.Mutex
	done uint32
	v    int
}

func (l *Lazy) Get() int {
	if atomic.LoadUint32(&l.done) == 1 {
		return l.v
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done == 0 { // a plain read under the lock: the atomic accesses outside it only read
		l.v = 42
		l.done = 1 // want `l.done is written in Get without sync/atomic, but read atomically in Get`
	}
	return l.v
}

// Metrics' exported field is updated atomically by the package's own
// methods: reading it plainly in another is a race all the same.
type Metrics struct {
	Requests int64
}

func (m *Metrics) Inc() { atomic.AddInt64(&m.Requests, 1) }

func (m *Metrics) String() string {
	if m.Requests == 0 { // want `m.Requests is read in String without sync/atomic, but written atomically in Inc`
		return "idle"
	}
	return "busy"
}

// Correct code: no diagnostics.

// Fields of atomic types cannot be accessed plainly.
type Gauge struct {
	n     atomic.Int64
	on    atomic.Bool
	value atomic.Value
}

func (g *Gauge) Add(d int64)      { g.n.Add(d) }
func (g *Gauge) Load() int64      { return g.n.Load() }
func (g *Gauge) Enable()          { g.on.Store(true) }
func (g *Gauge) Enabled() bool    { return g.on.Load() }
func (g *Gauge) Set(v any)        { g.value.Store(v) }
func (g *Gauge) Get() any         { return g.value.Load() }
func (g *Gauge) Reset()           { g.n.Store(0) }
func (g *Gauge) Swap(v int64) int { return int(g.n.Swap(v)) }

// Plain accesses before the value is shared: in a composite literal, in
// the constructor, in a helper only the constructor calls.
type Ticker struct {
	ticks  int64
	period int64
	max    int64
}

func NewTicker(period int64) *Ticker {
	t := &Ticker{period: period, ticks: 1}
	t.max = 100
	t.init()
	return t
}

func (t *Ticker) init() { t.ticks = 0 }

func (t *Ticker) Tick() int64 { return atomic.AddInt64(&t.ticks, t.period) }

func (t *Ticker) Ticks() int64 { return atomic.LoadInt64(&t.ticks) }

// Max reads plainly a field that is only ever read atomically too: two
// reads do not race.
func (t *Ticker) Max() int64 { return t.max }

func (t *Ticker) Limit() int64 { return atomic.LoadInt64(&t.max) }

// Seq uses atomics under its lock everywhere: they are redundant, and the
// plain read under the same lock does not race.
type Seq struct {
	mu sync.Mutex
	n  int64
}

func (s *Seq) Next() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return atomic.AddInt64(&s.n, 1)
}

func (s *Seq) Value() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (s *Seq) Reset() {
	s.mu.Lock()
	s.n = 0
	s.mu.Unlock()
}

// Once is sync.Once's pattern: the atomic load outside the lock, a plain
// read and an atomic store under it.
type Once struct {
	mu   sync.Mutex
	done uint32
	f    func()
}

func (o *Once) Do() {
	if atomic.LoadUint32(&o.done) == 0 {
		o.doSlow()
	}
}

func (o *Once) doSlow() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done == 0 {
		defer atomic.StoreUint32(&o.done, 1)
		o.f()
	}
}

// Batch's goroutines add atomically and are waited for before the total
// is read plainly.
type Batch struct {
	total int64
}

func (b *Batch) Run(n int) int64 {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&b.total, 1)
		}()
	}
	wg.Wait()
	return b.total
}

// spinLock is a lock implemented with atomics: its plain read before the
// compare-and-swap is its own business, and so is that of the types that
// hold one.
type spinLock struct {
	state int32
}

func (l *spinLock) Lock() {
	for {
		old := l.state
		if old == 0 && atomic.CompareAndSwapInt32(&l.state, old, 1) {
			return
		}
	}
}

func (l *spinLock) Unlock() { atomic.StoreInt32(&l.state, 0) }

func (l *spinLock) Locked() bool { return l.state != 0 }

type Registry struct {
	mu    spinLock
	names []string
}

func (r *Registry) Add(name string) {
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
}

func (r *Registry) Busy() bool { return r.mu.Locked() }

// An Init method initialises its receiver before it is shared, like a
// constructor.
type Meter struct {
	rate int64
}

func (m *Meter) Init(rate int64) { m.rate = rate }

func (m *Meter) Mark() { atomic.AddInt64(&m.rate, 1) }

func (m *Meter) Rate() int64 { return atomic.LoadInt64(&m.rate) }

// Embedding a mutex does not make a type a lock implementation.
type Tally struct {
	sync.Mutex
	n int64
}

func (t *Tally) Add() { atomic.AddInt64(&t.n, 1) }

func (t *Tally) Sum() int64 {
	t.Lock()
	defer t.Unlock()
	return t.n // want `t.n is read in Sum without sync/atomic, but written atomically in Add .*\(t.Mutex is held here, but not at the atomic access\)`
}

// Leveled has a level set and read atomically.
type Leveled struct{ level int32 }

func (l *Leveled) SetLevel(v int32) { atomic.StoreInt32(&l.level, v) }

func (l *Leveled) Enabled(v int32) bool { return v >= atomic.LoadInt32(&l.level) }

// Std returns a writer holding a copy of l.
func (l *Leveled) Std() interface{ Write([]byte) (int, error) } { return &copyWriter{*l} }

// copyWriter holds a copy of a Leveled, and reads its level plainly:
// nothing can call its promoted SetLevel, so nothing writes the copy.
// Silent.
type copyWriter struct{ Leveled }

func (w *copyWriter) Write(p []byte) (int, error) {
	if w.level > 0 {
		return 0, nil
	}
	return len(p), nil
}

// loudWriter is copyWriter whose promoted SetLevel the package calls.
type loudWriter struct{ Leveled }

func (w *loudWriter) Write(p []byte) (int, error) {
	if w.level > 0 { // want `w.Leveled.level is read in Write without sync/atomic, but written atomically in SetLevel`
		return 0, nil
	}
	return len(p), nil
}

// Loud returns a writer at level v.
func Loud(v int32) interface{ Write([]byte) (int, error) } {
	w := &loudWriter{}
	w.SetLevel(v)
	return w
}
