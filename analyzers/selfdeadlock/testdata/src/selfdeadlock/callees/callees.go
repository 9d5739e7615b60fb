// Package callees holds self-deadlocks through recursion, callees
// several calls deep, callbacks and interfaces, each next to a correct
// variant.
package callees

import (
	"log"
	"sync"

	"selfdeadlocklib"
)

type node struct {
	key         int
	left, right *node
	mu          sync.Mutex
	kids        []*node
}

type Tree struct {
	mu   sync.Mutex
	root *node
	n    int
}

// Insert calls itself with t.mu held.
func (t *Tree) Insert(n *node, k int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n == nil {
		t.n++
		return
	}
	if k < n.key {
		t.Insert(n.left, k) // want `t.mu is locked \(in Insert(, a recursive call)?\) while already held \(locked at callees.go:\d+:\d+\)`
	}
}

// Size and sizeOf call each other with t.mu held.
func (t *Tree) Size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sizeOf(t.root) // want `t.mu is locked \(in (Size|sizeOf)(, a recursive call)?\) while already held`
}

func (t *Tree) sizeOf(n *node) int {
	if n == nil {
		return t.Size()
	}
	return 1
}

// Correct: the exported method locks, the recursive helper expects the
// lock held.
func (t *Tree) Put(k int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.put(t.root, k)
}

func (t *Tree) put(n *node, k int) {
	if n == nil {
		t.n++
		return
	}
	if k < n.key {
		t.put(n.left, k)
	} else {
		t.put(n.right, k)
	}
}

// Correct: recursion over other objects, each with its own lock.
func (n *node) Walk(f func(int)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	f(n.key)
	for _, k := range n.kids {
		k.Walk(f)
	}
}

// Correct: a flag says whether the caller holds the lock.
func (t *Tree) get(n *node, k int, locked bool) int {
	if !locked {
		t.mu.Lock()
		defer t.mu.Unlock()
	}
	if n == nil || n.key == k {
		return t.n
	}
	return t.get(n.left, k, true)
}

// Correct: the recursive call happens after the lock is released.
func (t *Tree) Drain(n *node) {
	t.mu.Lock()
	t.n--
	t.mu.Unlock()
	if n != nil {
		t.Drain(n.left)
	}
}

type Cache struct {
	mu      sync.Mutex
	m       map[string]int
	onEvict func(string)
	g       selfdeadlocklib.Guard
}

func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

func (c *Cache) len() int { return len(c.m) }

// Several calls deep: Add → full → count → Len.
func (c *Cache) Add(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.full() { // want `c.mu is locked \(in Len\) while already held`
		return
	}
	c.m[k] = 1
}

func (c *Cache) full() bool { return c.count() > 10 }

func (c *Cache) count() int { return c.Len() }

// A lock helper several calls deep: Reset locks c.mu through lockAll,
// then again.
func (c *Cache) lock()    { c.mu.Lock() }
func (c *Cache) lockAll() { c.lock() }

func (c *Cache) Reset() {
	c.lockAll()
	c.mu.Lock() // want `c.mu is locked while already held`
	c.m = nil
	c.mu.Unlock()
}

// A closure passed to a helper that holds the lock while it calls it.
func (c *Cache) withLock(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f()
}

func (c *Cache) Count() int {
	n := 0
	c.withLock(func() { // want `c.mu is locked \(in Len, called through a function value\) while already held`
		n = c.Len()
	})
	return n
}

// Correct: the closure uses the variant that expects the lock held.
func (c *Cache) Count2() int {
	n := 0
	c.withLock(func() { n = c.len() })
	return n
}

// Across packages: the helper's fact says it calls f with mu held.
func (c *Cache) Count3() int {
	n := 0
	selfdeadlocklib.Do(&c.mu, func() { // want `c.mu is locked \(in Len, called through a function value\) while already held`
		n = c.Len()
	})
	return n
}

func (c *Cache) Count4() int {
	n := 0
	c.g.Run(func() { // want `c.g.Mu is locked \(in Count4\$1, called through a function value\) while already held`
		c.g.Mu.Lock()
		n = len(c.m)
		c.g.Mu.Unlock()
	})
	return n
}

// Correct: another lock.
func (c *Cache) Count5() int {
	n := 0
	selfdeadlocklib.Do(&c.mu, func() {
		c.g.Mu.Lock()
		n = len(c.m)
		c.g.Mu.Unlock()
	})
	return n
}

// A callback stored in a field of the object it captures, called with
// the object's lock held.
func NewCache() *Cache {
	c := &Cache{m: map[string]int{}}
	c.onEvict = func(k string) {
		c.mu.Lock()
		delete(c.m, k)
		c.mu.Unlock()
	}
	return c
}

func (c *Cache) Evict(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onEvict(k) // want `c.mu is locked \(in NewCache\$1, called through a function value\) while already held`
}

// A method value stored in a field of its receiver.
type Conn struct {
	mu      sync.Mutex
	onClose func()
	closed  bool
}

func NewConn() *Conn {
	c := &Conn{}
	c.onClose = c.Close
	return c
}

func (c *Conn) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
}

func (c *Conn) Fail() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onClose() // want `c.mu is locked \(in Close, called through a function value\) while already held`
}

// Correct: the callback belongs to another object.
type Peer struct {
	mu     sync.Mutex
	onDone func()
	n      int
}

func Link(a, b *Peer) {
	a.onDone = b.Done
}

func (p *Peer) Done() {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
}

func (p *Peer) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onDone()
}

// An interface method of the object itself, through a helper.
type Lener interface{ Len() int }

func report(l Lener) int { return l.Len() }

func (c *Cache) Stats() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return report(c) // want `c.mu is locked \(in Len, called through an interface\) while already held`
}

// Correct: the interface is called after the lock is released.
func (c *Cache) Stats2() int {
	c.mu.Lock()
	n := len(c.m)
	c.mu.Unlock()
	return n + report(c)
}

// A deferred Lock where Unlock was meant.
func (c *Cache) Clear() {
	c.mu.Lock()
	defer c.mu.Lock() // want `c.mu is locked while already held`
	c.m = map[string]int{}
}

type Lazy struct {
	mu   sync.Mutex
	once sync.Once
	m    map[string]int
}

func (l *Lazy) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.m)
}

func (l *Lazy) init() {
	l.m = map[string]int{}
	if l.Len() > 0 {
		panic("not empty")
	}
}

// A sync.Once body run with the lock held, which locks it again.
func (l *Lazy) Get(k string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.once.Do(l.init) // want `l.mu is locked \(in Len\) while already held`
	return l.m[k]
}

// Correct: the Once runs before the lock is taken.
func (l *Lazy) Get2(k string) int {
	l.once.Do(l.init)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m[k]
}

// Correct: the handshake function, called through a field with the lock
// held, drops the lock while it waits and takes it again.
type Handshaker struct {
	mu  sync.Mutex
	fn  func() error
	ch  chan int
	err error
}

func NewHandshaker() *Handshaker {
	h := &Handshaker{ch: make(chan int)}
	h.fn = h.clientHandshake
	return h
}

func (h *Handshaker) wait() {
	h.mu.Unlock()
	defer h.mu.Lock()
	<-h.ch
}

func (h *Handshaker) clientHandshake() error {
	h.wait()
	return nil
}

func (h *Handshaker) Handshake() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.err = h.fn()
	return h.err
}

// A closure run by a function of another package in the caller's
// goroutine, with the caller's lock held.
func (c *Cache) AddAll(ks []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	selfdeadlocklib.Each(ks, func(k string) { // want `c.mu is locked \(in Len, called through a function value\) while already held`
		if c.Len() < 10 {
			c.m[k] = 1
		}
	})
}

// Correct: the closure runs in another goroutine.
func (c *Cache) Later() {
	c.mu.Lock()
	defer c.mu.Unlock()
	selfdeadlocklib.Async(func() { c.Len() })
}

// A String method that locks, called by log with the lock held.
type Peer2 struct {
	mu   sync.Mutex
	addr string
}

func (p *Peer2) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addr
}

func (p *Peer2) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	log.Printf("closing %v", p) // want `p.mu is locked \(in String, called through an interface\) while already held`
}

// Correct: printed after the lock is released.
func (p *Peer2) Close2() {
	p.mu.Lock()
	p.addr = ""
	p.mu.Unlock()
	log.Printf("closed %v", p)
}

// A hook installed through a setter, by a closure over the object
// itself, and called with the object's lock held.
type Hook func(int)

type Lessor struct {
	mu sync.Mutex
	cp Hook
	n  int
}

func (l *Lessor) SetHook(h Hook) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cp = h
}

func (l *Lessor) Checkpoint(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n = n
}

func (l *Lessor) Renew() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cp != nil {
		l.cp(l.n) // want `l.mu is locked \(in Checkpoint, called through a function value\) while already held`
	}
}

func NewLessor() *Lessor {
	l := &Lessor{}
	l.SetHook(func(n int) { l.Checkpoint(n) })
	return l
}

// Correct: the hook of one lessor checkpoints another.
type Lessor2 struct {
	mu sync.Mutex
	cp Hook
	n  int
}

func (l *Lessor2) SetHook(h Hook) { l.cp = h }

func (l *Lessor2) Checkpoint(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n = n
}

func (l *Lessor2) Renew() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cp(l.n)
}

func Chain(a, b *Lessor2) {
	a.SetHook(func(n int) { b.Checkpoint(n) })
}
