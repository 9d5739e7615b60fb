// Package indirect holds lock-order cycles of more than two locks and
// orders established through callees, closures, interfaces and function
// values, each next to a correct variant.
package indirect

import "sync"

// A three-lock cycle across three types: Tick holds Sched.mu and locks
// Store.mu, Flush holds Store.mu and locks Cache.mu, Evict holds Cache.mu
// and locks Sched.mu. Three goroutines, one in each, deadlock.
type Sched struct {
	mu    sync.Mutex
	store *Store
	n     int
}

type Store struct {
	mu    sync.Mutex
	cache *Cache
	n     int
}

type Cache struct {
	mu    sync.Mutex
	sched *Sched
	n     int
}

func (s *Sched) Tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	s.store.Bump()
}

func (s *Sched) Wake() {
	s.mu.Lock()
	s.n = 0
	s.mu.Unlock()
}

func (s *Store) Bump() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *Store) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cache.Touch()
}

func (c *Cache) Touch() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Cache) Evict() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = 0
	c.sched.Wake() // want `lock order cycle of 3 locks: Evict locks c.sched.mu \(in Wake\) while holding c.mu, Tick \(at cycle.go:\d+:\d+\) locks indirect.Store.mu while holding indirect.Sched.mu, Flush \(at cycle.go:\d+:\d+\) locks indirect.Cache.mu while holding indirect.Store.mu`
}

// Correct: the same three types, but Evict wakes the scheduler after
// releasing its own lock, so the orders form no cycle.
type Sched2 struct {
	mu    sync.Mutex
	store *Store2
	n     int
}

type Store2 struct {
	mu    sync.Mutex
	cache *Cache2
	n     int
}

type Cache2 struct {
	mu    sync.Mutex
	sched *Sched2
	n     int
}

func (s *Sched2) Tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.store.Bump()
}

func (s *Sched2) Wake() {
	s.mu.Lock()
	s.n = 0
	s.mu.Unlock()
}

func (s *Store2) Bump() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *Store2) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cache.Touch()
}

func (c *Cache2) Touch() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Cache2) Evict() {
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
	c.sched.Wake()
}

// Correct: a cycle whose every order is taken under one gate lock cannot
// deadlock, since only one goroutine at a time takes any of them.
var gate sync.Mutex

type A struct {
	mu sync.Mutex
	b  *B
	n  int
}

type B struct {
	mu sync.Mutex
	c  *C
	n  int
}

type C struct {
	mu sync.Mutex
	a  *A
	n  int
}

func (a *A) Run() {
	gate.Lock()
	defer gate.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.b.mu.Lock()
	a.b.n++
	a.b.mu.Unlock()
}

func (b *B) Run() {
	gate.Lock()
	defer gate.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.c.mu.Lock()
	b.c.n++
	b.c.mu.Unlock()
}

func (c *C) Run() {
	gate.Lock()
	defer gate.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.a.mu.Lock()
	c.a.n++
	c.a.mu.Unlock()
}

// Correct: a cycle with a link of two read locks does not block there.
type R1 struct {
	mu sync.RWMutex
	r2 *R2
	n  int
}

type R2 struct {
	mu sync.RWMutex
	r3 *R3
	n  int
}

type R3 struct {
	mu sync.Mutex
	r1 *R1
	n  int
}

func (r *R1) Get() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.r2.mu.RLock() // R1 read, then R2 read
	defer r.r2.mu.RUnlock()
	return r.n + r.r2.n
}

func (r *R2) Set() {
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.r3.mu.Lock()
	r.r3.n++
	r.r3.mu.Unlock()
}

func (r *R3) Peek() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.r1.mu.RLock()
	defer r.r1.mu.RUnlock()
	return r.r1.n
}

// A package-level lock and a field, in opposite orders.
var registryMu sync.Mutex

type Plugin struct {
	mu   sync.Mutex
	name string
}

var plugins = map[string]*Plugin{}

func Register(p *Plugin) {
	registryMu.Lock()
	defer registryMu.Unlock()
	p.mu.Lock()
	plugins[p.name] = p
	p.mu.Unlock()
}

func (p *Plugin) Rename(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	registryMu.Lock() // want `lock order inversion: Rename locks indirect.registryMu while holding p.mu, but Register \(at cycle.go:\d+:\d+\) locks them in the opposite order`
	delete(plugins, p.name)
	plugins[name] = p
	registryMu.Unlock()
	p.name = name
}
