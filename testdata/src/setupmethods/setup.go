// Package setupmethods holds set-up methods (called before an object is
// shared) and methods that look like them but are not.
package setupmethods

import "sync"

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
