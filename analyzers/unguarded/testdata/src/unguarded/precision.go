package unguarded

import (
	"errors"
	"sync"
)

// A field of a struct value that has its own mutex: an access made with
// that mutex held is synchronised by the field's own lock, whatever the
// outer type's lock guards elsewhere.

type half struct {
	sync.Mutex
	err error
	seq int
}

type TLSConn struct {
	hs sync.Mutex
	in half
}

func (c *TLSConn) Handshake() {
	c.hs.Lock()
	defer c.hs.Unlock()
	c.in.seq = 0
	c.in.err = nil
}

func (c *TLSConn) Rekey() {
	c.hs.Lock()
	defer c.hs.Unlock()
	c.in.seq++
}

// Read holds in's own mutex: not reported.
func (c *TLSConn) Read() {
	c.in.Lock()
	defer c.in.Unlock()
	c.in.setErrorLocked(errors.New("closed"))
}

func (h *half) setErrorLocked(err error) { h.err = err }

// Fail holds neither lock.
func (c *TLSConn) Fail() {
	c.in.err = nil // want `c.in is written in Fail without c.hs`
}

// Two locks: sendMu serialises the sends, mu guards pending. The objects
// stored in pending are handed over (their fields are written after the
// unlock), so sendMu is held at more of the type's other accesses than mu;
// mu is still the lock held at most of pending's accesses, and receive
// holds it.

type call struct{ err error }

var errFailed = errors.New("failed")

type RPCClient struct {
	sendMu  sync.Mutex
	mu      sync.Mutex
	seq     int
	pending map[int]*call
}

func NewRPCClient() *RPCClient {
	c := &RPCClient{pending: map[int]*call{}}
	go c.receive()
	return c
}

func (c *RPCClient) Send(x *call, fail bool) {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	c.mu.Lock()
	c.seq++
	seq := c.seq
	c.pending[seq] = x
	c.mu.Unlock()
	if fail {
		c.mu.Lock()
		x = c.pending[seq]
		delete(c.pending, seq)
		c.mu.Unlock()
		x.err = errFailed
	}
}

func (c *RPCClient) receive() {
	for seq := 0; ; seq++ {
		c.mu.Lock()
		x := c.pending[seq]
		delete(c.pending, seq) // not reported: mu is pending's guard
		c.mu.Unlock()
		x.err = nil
	}
}

// Drop takes neither lock.
func (c *RPCClient) Drop(seq int) {
	delete(c.pending, seq) // want `c.pending is written in Drop without c.mu`
}

// A type switch over an interface: the locations of one case's type are
// not the locations of a value of another type passed in.

type Shape interface{ Area() int }

type Group struct {
	mu   sync.Mutex
	memo int
}

type Leaf struct {
	size int
	memo int
}

func (g *Group) Area() int { return 0 }
func (l *Leaf) Area() int  { return l.size }

func measure(s Shape) int {
	switch s := s.(type) {
	case *Group:
		s.mu.Lock()
		defer s.mu.Unlock()
		s.memo++
		return s.memo
	case *Leaf:
		return s.size
	}
	return 0
}

func (l *Leaf) Measure() int   { return measure(l) }
func (l *Leaf) Remeasure() int { return measure(l) + measure(l) }

// Peek asserts the leaf to another type: the assertion fails, nothing
// of the leaf is locked.
func (l *Leaf) Peek() int {
	var s Shape = l
	if g, ok := s.(*Group); ok {
		g.mu.Lock()
		defer g.mu.Unlock()
		return g.memo
	}
	return 0
}

// Reset writes the leaf's memo, which no lock guards: not reported.
func (l *Leaf) Reset() { l.memo = 0 }

// Group's own memo is guarded by its mutex.
func (g *Group) Bump() {
	g.mu.Lock()
	g.memo++
	g.mu.Unlock()
}

func (g *Group) Get() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.memo
}

func (g *Group) Reset() { g.memo = 0 } // want `g.memo is written in Reset without g.mu`

// A lock that one method holds around all its accesses, and no other
// method takes, serialises that method's calls ("one WriteTo at a time"):
// it is not evidence that the fields it reads are guarded by it.

type Recorder struct {
	writing sync.Mutex
	ring    []int
}

func (r *Recorder) WriteTo() int {
	r.writing.Lock()
	defer r.writing.Unlock()
	n := len(r.ring)
	for _, x := range r.ring {
		n += x
	}
	return n
}

// Stop resets the ring without the lock: not reported.
func (r *Recorder) Stop() { r.ring = nil }

// The same lock held by two methods guards the field.

type Recorder2 struct {
	writing sync.Mutex
	ring    []int
}

func (r *Recorder2) WriteTo() int {
	r.writing.Lock()
	defer r.writing.Unlock()
	return len(r.ring)
}

func (r *Recorder2) Add(x int) {
	r.writing.Lock()
	defer r.writing.Unlock()
	r.ring = append(r.ring, x)
}

func (r *Recorder2) Stop() { r.ring = nil } // want `r.ring is written in Stop without r.writing`

// A lock held at the writes of one method guards the field: a counter
// incremented under the lock and read without it.

type HitCount struct {
	mu sync.Mutex
	n  int
}

func (c *HitCount) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *HitCount) Get() int { return c.n } // want `c.n is read in Get without c.mu`

// A framer whose read half belongs to the reader goroutine and whose
// write half is used under wmu: the fields of the object fr refers to are
// guarded apart, each by what its own accesses hold.
type framer struct {
	rbuf []byte
	wbuf []byte
}

type FramedConn struct {
	wmu sync.Mutex
	fr  *framer
}

func NewFramedConn() *FramedConn {
	c := &FramedConn{fr: &framer{}}
	go c.readLoop()
	return c
}

func (c *FramedConn) readLoop() {
	for {
		c.fr.rbuf = c.fr.rbuf[:0] // not reported: only the reader uses the read half
	}
}

func (c *FramedConn) Write(p []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.fr.wbuf = append(c.fr.wbuf, p...)
}

func (c *FramedConn) Flush() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.fr.wbuf = c.fr.wbuf[:0]
}

// Reset clears the write half without wmu.
func (c *FramedConn) Reset() {
	c.fr.wbuf = nil // want `c.fr.wbuf is written in Reset without c.wmu, which is held at its \d+ other accesses in FramedConn's methods`
}
