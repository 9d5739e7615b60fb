package unguarded

import (
	"sync"
	"sync/atomic"
)

type Reader struct {
	mu  sync.Mutex
	buf []byte
	pos int
}

func NewReader(b []byte) *Reader {
	r := &Reader{}
	r.buf = b // a constructor: not reported
	return r
}

func (r *Reader) Read() byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.buf[r.pos]
	r.pos++
	return c
}

func (r *Reader) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.buf) - r.pos
}

func (r *Reader) Close() {
	r.buf = nil // want `r.buf is written in Close without r.mu, which is held at its \d other accesses in Reader's methods`
}

func (r *Reader) Pos() int {
	return r.pos // want `r.pos is read in Pos without r.mu`
}

type Buffer struct {
	mu  sync.Mutex
	off int
}

func (b *Buffer) reset() { b.off = 0 }

func (b *Buffer) Next() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.off++
	return b.off
}

// Reset writes off through a helper, with the lock held: not reported.
func (b *Buffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reset()
}

// Rewind calls the helper without the lock: reported at the call.
func (b *Buffer) Rewind() {
	b.reset() // want `b.off is written \(in reset\) in Rewind without b.mu`
}

type Cache struct {
	mu sync.RWMutex
	m  map[string]int
	n  int
}

func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[k]
}

func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

func (c *Cache) Bump(k string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.m[k]++ // want `c.m is written in Bump holding only a read lock on c.mu`
}

// Correct code: no diagnostics.

type Counter struct {
	mu    sync.Mutex
	n     int
	hits  atomic.Int64
	name  string
	ready chan struct{}
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.hits.Add(1)
}

func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *Counter) Hits() int64 { return c.hits.Load() }

// Name only reads a field no method writes.
func (c *Counter) Name() string { return c.name }

func (c *Counter) Label() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.name
}

func (c *Counter) Wait() { <-c.ready }

// Try holds the lock on the branch where TryLock succeeded.
func (c *Counter) Try() {
	if c.mu.TryLock() {
		c.n = 0
		c.mu.Unlock()
	}
}

// Two accesses only: not enough evidence of a guard.
type Pair struct {
	mu sync.Mutex
	a  int
}

func (p *Pair) Set(v int) {
	p.mu.Lock()
	p.a = v
	p.mu.Unlock()
}

func (p *Pair) Peek() int { return p.a }

type conn struct {
	mu     sync.Mutex
	closed bool
}

// Session reaches its lock through a field: reading that field needs no
// lock.
type Session struct {
	c *conn
}

func (s *Session) Close() {
	s.c.mu.Lock()
	s.c.closed = true
	s.c.mu.Unlock()
}

func (s *Session) Closed() bool {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	return s.c.closed
}

func (s *Session) Conn() *conn { return s.c }

// Start's goroutine holds none of Start's locks; its accesses are not
// the method's.
func (c *Counter) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	go func() { _ = c.n }()
}

// Table is initialised once under its lock, then read without it by
// methods that synchronised on the lock first.
type Table struct {
	mu      sync.Mutex
	ready   bool
	quantum int
}

func (t *Table) init() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ready {
		return
	}
	t.quantum = 4
	t.ready = true
}

func (t *Table) Quantum() int {
	t.init()
	return t.quantum
}

func (t *Table) Step(n int) int {
	t.init()
	return n * t.quantum
}

func (t *Table) Ready() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ready
}

// Common is guarded by mu everywhere; dirMu happens to be held too at two
// of the accesses: no report.
type Common struct {
	mu    sync.Mutex
	dirMu sync.Mutex
	names []string
}

func (c *Common) Helper() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.names = nil
}

func (c *Common) Dir() int {
	c.dirMu.Lock()
	defer c.dirMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.names)
}

func (c *Common) TempDir() int {
	c.dirMu.Lock()
	defer c.dirMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	return cap(c.names)
}

// Server's exported field is configuration, set before the server is
// shared: no report.
type Server struct {
	mu     sync.Mutex
	Config string
	closed bool
}

func (s *Server) Start() string { return s.Config }

func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Config = ""
	s.closed = true
}

func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Config = "default"
}

// Node locks whichever node it works on: the lock and the accesses go
// through the same value, which may be one of two nodes. No report.
type Node struct {
	mu     sync.Mutex
	parent *Node
	sync   bool
	names  []string
}

func (n *Node) Mark() {
	if n.sync {
		n = n.parent
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.names = nil
}

func (n *Node) Count() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.names)
}

func (n *Node) Add(s string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.names = append(n.names, s)
}
