// Package setupmethods holds set-up methods (called before an object is
// shared) and methods that look like them but are not.
package setupmethods

import (
	"fmt"
	"sync"
)

// Cache synchronises its map; its hash function is configuration.
type Cache struct {
	mu   sync.Mutex
	m    map[string]int
	hash func(string) int
}

// SetHash sets the hash function: the only writer of hash, unlocked,
// which Get reads unlocked too. A set-up method.
func (c *Cache) SetHash(f func(string) int) { c.hash = f }

// Get reads under the lock, and the hash without it.
func (c *Cache) Get(k string) int {
	h := c.hash
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k] + h(k)
}

// Put writes under the lock.
func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

// Pool has a fluent setter.
type Pool struct {
	mu   sync.Mutex
	size int
	free []int
}

// WithSize sets the size and returns the pool, for chaining after the
// constructor. A set-up method.
func (p *Pool) WithSize(n int) *Pool {
	p.size = n
	return p
}

// Take takes a free slot.
func (p *Pool) Take() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) == 0 || p.size == 0 {
		return -1
	}
	n := p.free[0]
	p.free = p.free[1:]
	return n
}

// Server has a method its documentation says to call first.
type Server struct {
	mu    sync.Mutex
	conns int
	name  string
}

// Configure names the server. It must be called before using the server.
func (s *Server) Configure(name string) {
	s.mu.Lock()
	s.name = name
	s.mu.Unlock()
}

// Register adds a service. This must be called before invoking Serve.
func (s *Server) Register(name string) {
	s.mu.Lock()
	s.name += name
	s.mu.Unlock()
}

// Accept counts a connection.
func (s *Server) Accept() {
	s.mu.Lock()
	s.conns++
	s.mu.Unlock()
}

// Setup configures the server with its default name: it calls
// Configure, and is bound by Configure's contract.
func (s *Server) Setup() { s.Configure("default") }

// Serve accepts a connection: it calls Accept, no set-up method.
func (s *Server) Serve() { s.Accept() }

// Counter is not configuration: Reset and Inc both write n.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Reset writes n without the lock: a bug candidate, not a set-up method,
// since Inc writes n too.
func (c *Counter) Reset() { c.n = 0 }

// Inc writes n under the lock.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// List has a fluent method that locks: meant for concurrent use.
type List struct {
	mu sync.Mutex
	xs []int
}

// Add appends under the lock and returns the list.
func (l *List) Add(x int) *List {
	l.mu.Lock()
	l.xs = append(l.xs, x)
	l.mu.Unlock()
	return l
}

// Len reads under the lock.
func (l *List) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.xs)
}

// Group runs tasks; WithErrors converts it into an ErrGroup, an option
// made before the first task, as a fluent setter is.
type Group struct {
	mu      sync.Mutex
	started bool
	n       int
}

// ErrGroup is a Group that collects errors.
type ErrGroup struct {
	g    *Group
	errs []error
}

// WithErrors returns the group as an ErrGroup. A set-up method.
func (g *Group) WithErrors() *ErrGroup {
	if g.started {
		panic("WithErrors after Go")
	}
	return &ErrGroup{g: g}
}

// Go starts a task.
func (g *Group) Go(f func()) {
	g.mu.Lock()
	g.started = true
	g.n++
	g.mu.Unlock()
	f()
}

// Registry hands out views; WithPrefix locks, so it is meant to be called
// while the registry is in use: not a set-up method.
type Registry struct {
	mu    sync.Mutex
	names []string
}

// View is a prefixed view of a registry.
type View struct {
	r      *Registry
	prefix string
	n      int
}

// WithPrefix returns a view of the names so far.
func (r *Registry) WithPrefix(p string) *View {
	r.mu.Lock()
	defer r.mu.Unlock()
	return &View{r: r, prefix: p, n: len(r.names)}
}

// Add adds a name.
func (r *Registry) Add(name string) {
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
}

// Queue has an initialiser that takes no lock, and one that does.
type Queue struct {
	mu    sync.Mutex
	items []int
	hits  int
}

func (q *Queue) Init(n int) { q.items = make([]int, 0, n) }

func (q *Queue) InitStats() {
	q.mu.Lock()
	q.hits = 0
	q.mu.Unlock()
}

func (q *Queue) Push(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.hits++
	q.mu.Unlock()
}

// Stream has a method its documentation keeps from running concurrently.
type Stream struct {
	mu     sync.Mutex
	header []string
}

// SetHeader adds to the header. This should not be called in parallel to
// other data writes.
func (s *Stream) SetHeader(h string) {
	s.mu.Lock()
	s.header = append(s.header, h)
	s.mu.Unlock()
}

// Header returns the header.
func (s *Stream) Header() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.header
}

// Conn's Close writes, without the lock, the fields Read reads under
// it: a bug candidate, never a set-up method.
type Conn struct {
	mu     sync.Mutex
	closed bool
	buf    []byte
}

// Read reads under the lock.
func (c *Conn) Read() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	return c.buf
}

// Close marks the connection closed, forgetting the lock.
func (c *Conn) Close() {
	c.closed = true
	c.buf = nil
}

// Sink's Stop is the only writer of done, which Write reads without
// synchronisation too: the shape of a set-up method, but a method that
// ends the object's use runs while it is in use.
type Sink struct {
	mu   sync.Mutex
	done bool
	n    int
}

// Write counts under the lock, and checks done without it.
func (s *Sink) Write() {
	if s.done {
		return
	}
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

// Stop stops the sink.
func (s *Sink) Stop() { s.done = true }

// Ring's Init sets the capacity, which no method reads under a lock: a
// set-up method, unlike Queue.Init, whose items Push appends to under
// the lock.
type Ring struct {
	mu   sync.Mutex
	size int
	n    int
}

func (r *Ring) Init(size int) { r.size = size }

// Add counts under the lock, up to the capacity read without it.
func (r *Ring) Add() {
	max := r.size
	r.mu.Lock()
	if r.n < max {
		r.n++
	}
	r.mu.Unlock()
}

// Store's NoLock turns its locking off: Get and Put lock only while
// locking is on. Calls after NoLock race by the caller's choice.
type Store struct {
	mu     sync.Mutex
	nolock bool
	m      map[string]int
}

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

// Shut's Close sets a flag that Send tests before locking, and returns
// early on: a closed check, not a switch of the locking.
type Shut struct {
	mu     sync.Mutex
	closed bool
	n      int
}

// Send counts, unless the value is closed.
func (s *Shut) Send() {
	if s.closed {
		return
	}
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

// Close closes.
func (s *Shut) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// Table documents its switch.
type Table struct {
	mu sync.RWMutex
	m  map[int]int
}

// Unsafe disables locking for the calls that follow.
func (t *Table) Unsafe() {}

// Get reads under the read lock.
func (t *Table) Get(k int) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.m[k]
}

// MutexWrap is a mutex that can be disabled.
type MutexWrap struct {
	lock     sync.Mutex
	disabled bool
}

// Lock locks, unless disabled.
func (mw *MutexWrap) Lock() {
	if !mw.disabled {
		mw.lock.Lock()
	}
}

// Unlock unlocks, unless disabled.
func (mw *MutexWrap) Unlock() {
	if !mw.disabled {
		mw.lock.Unlock()
	}
}

// Disable disables the wrapper.
func (mw *MutexWrap) Disable() { mw.disabled = true }

// Logger locks through a MutexWrap that SetNoLock disables: a lock-off
// switch through the wrapper's method.
type Logger struct {
	mu  MutexWrap
	out []string
}

// SetNoLock is for writers safe for concurrent writes.
func (l *Logger) SetNoLock() { l.mu.Disable() }

// Print logs under the wrapper's lock.
func (l *Logger) Print(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.out = append(l.out, s)
}

// HandlerOptions configure a Handler: the level is an interface of
// another package.
type HandlerOptions struct{ Level fmt.Stringer }

// Handler formats records under its lock; its options are set by its
// constructor.
type Handler struct {
	mu   sync.Mutex
	opts HandlerOptions
	buf  []byte
}

// Enabled reads the level through the options' interface: a call of
// unknown code, which may write what the interface refers to, but not
// the field that holds it. Not a set-up method.
func (h *Handler) Enabled(l string) bool { return l >= h.opts.Level.String() }

// Handle formats a record.
func (h *Handler) Handle(msg string) {
	if h.opts.Level == nil {
		return
	}
	h.mu.Lock()
	h.buf = append(h.buf[:0], msg...)
	h.mu.Unlock()
}

// With returns a handler with the same options, which it copies whole.
func (h *Handler) With() *Handler { return &Handler{opts: h.opts} }

// TreeOptions configure a Tree.
type TreeOptions struct {
	// NoLocks will disable locking: for a tree one goroutine owns.
	NoLocks bool
	// Verbose logs each operation.
	Verbose bool
	// Degree is the fan-out.
	Degree int
}

// Tree locks its mutex unless its options turned the locking off.
type Tree struct {
	mu    sync.RWMutex
	locks bool
	n     int
}

// NewTree returns a tree with the options o.
func NewTree(o TreeOptions) *Tree { return &Tree{locks: !o.NoLocks} }

// Len returns the number of items.
func (t *Tree) Len() int {
	if t.locks {
		t.mu.RLock()
		defer t.mu.RUnlock()
	}
	return t.n
}

// Locked is a queue its Lock method locks against changes: Push and Pop
// refuse while it is locked, testing the flag in their retry loop before
// they take the mutex. Lock switches nothing off (the calls refuse
// rather than run without the mutex): it is no lock-off switch, and its
// race with Push on the flag must stay testable.
type Locked struct {
	mu     sync.Mutex
	lmu    sync.Mutex
	locked bool
	items  []int
}

// Lock makes Push and Pop refuse until Unlock.
func (q *Locked) Lock() {
	q.lmu.Lock()
	q.locked = true
	q.lmu.Unlock()
}

// Push appends v, waiting while the queue is full, unless the queue is
// locked.
func (q *Locked) Push(v int) error {
	for {
		if q.locked {
			return fmt.Errorf("locked")
		}
		q.mu.Lock()
		if len(q.items) < 16 {
			q.items = append(q.items, v)
			q.mu.Unlock()
			return nil
		}
		q.mu.Unlock()
	}
}

// Full waits, under the lock, until the queue has room, its check in a
// loop that releases the lock before it waits: the flag tested under the
// lock is no switch either.
func (q *Locked) Full() {
	for {
		q.mu.Lock()
		if q.locked {
			q.mu.Unlock()
			continue
		}
		q.mu.Unlock()
		q.mu.Lock()
		q.items = q.items[:0]
		q.mu.Unlock()
		return
	}
}

// Expiring is what NewExpiring returns: a cache behind an interface,
// whose option setter returns it as that interface.
type Expiring interface {
	Get(k string) (int, bool)
	WithTTL(d int) Expiring
	Purge() Expiring
}

// expiring is an Expiring. WithTTL is a fluent setter, though it returns
// the interface; Purge, which returns it too, locks: no set-up method.
type expiring struct {
	mu  sync.Mutex
	ttl int
	m   map[string]int
}

// NewExpiring returns an empty cache.
func NewExpiring() Expiring { return &expiring{m: map[string]int{}} }

// WithTTL sets the entries' time to live.
func (c *expiring) WithTTL(d int) Expiring { c.ttl = d; return c }

// Get returns the entry of k while its time to live lasts.
func (c *expiring) Get(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok && c.ttl >= 0
}

// Purge empties the cache.
func (c *expiring) Purge() Expiring {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = map[string]int{}
	c.ttl = 0
	return c
}

// Headers sets headers with a fluent setter documented as thread-safe:
// no set-up method, though it returns its receiver.
type Headers struct {
	mu sync.RWMutex
	h  map[string]string
	n  int
}

// Set is a thread-safe way of setting a header.
func (s *Headers) Set(k, v string) *Headers {
	s.n++
	return s
}

// Len returns how many headers were set.
func (s *Headers) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.n
}

// CacheConfig configures a Layered cache with fluent setters.
type CacheConfig struct {
	size int
}

// Size sets the size.
func (c *CacheConfig) Size(n int) *CacheConfig {
	c.size = n
	return c
}

// Layered embeds its configuration: Size, promoted, is its set-up
// method; Get reads the configuration and the map under the lock.
type Layered struct {
	*CacheConfig
	mu sync.Mutex
	m  map[string]int
}

// Get returns the value of k.
func (l *Layered) Get(k string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) > l.size {
		return 0
	}
	return l.m[k]
}

// Mux registers its matchers before serving: Serve reads them without a
// lock, and Close reads them under the lock that guards the connection
// count. That lock guards no matcher: Match is a set-up method (Queue.Init
// is not: Push appends to the items under the lock at its every access).
type Mux struct {
	mu       sync.Mutex
	matchers []string
	conns    int
}

func (m *Mux) Match(s string) { m.matchers = append(m.matchers, s) }

func (m *Mux) Serve() int {
	n := len(m.matchers)
	m.mu.Lock()
	m.conns++
	m.mu.Unlock()
	return n
}

func (m *Mux) Close() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.conns = 0
	return len(m.matchers)
}
