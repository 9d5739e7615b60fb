package lockleak

import (
	"log"
	"os"
	"sync"
	"testing"
	"time"
)

// Correct code: nothing below may be reported.

type Conn struct {
	mu      sync.Mutex
	rw      sync.RWMutex
	cond    *sync.Cond
	closed  bool
	ready   bool
	pending []int
	next    *Conn
	shards  []*Conn
}

// Released on every path.
func (c *Conn) EveryPath(x int) int {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return 0
	}
	switch x {
	case 1:
		c.mu.Unlock()
		return 1
	case 2:
		c.mu.Unlock()
		return 2
	}
	c.mu.Unlock()
	return x
}

// Deferred unlock, also through a closure.
func (c *Conn) Deferred() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	return nil
}

func (c *Conn) DeferredClosure() error {
	c.mu.Lock()
	defer func() {
		c.ready = true
		c.mu.Unlock()
	}()
	if c.closed {
		return ErrClosed
	}
	return nil
}

// Lock and unlock helpers.
func (c *Conn) lock()           { c.mu.Lock() }
func (c *Conn) unlock()         { c.mu.Unlock() }
func (c *Conn) rlock() *Conn    { c.rw.RLock(); return c }
func lockBoth(a, b *sync.Mutex) { a.Lock(); b.Lock() }

// A helper that unlocks the lock its caller holds on some paths only.
func (c *Conn) unlockIf(done bool) {
	if done {
		c.mu.Unlock()
	}
}

// A lock helper that waits: every return holds the lock.
func (c *Conn) lockWhenReady() {
	for {
		c.mu.Lock()
		if c.ready {
			return
		}
		c.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
}

// Conditional lock helpers, which say with a result that they return
// holding the lock.
func (c *Conn) lockOpen() bool {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return false
	}
	return true
}

func (c *Conn) acquire() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	return nil
}

func (c *Conn) lockedNext() *Conn {
	c.mu.Lock()
	if c.next == nil {
		c.mu.Unlock()
		return nil
	}
	return c.next
}

// Callers of the helpers.
func (c *Conn) UseHelpers() {
	c.lock()
	if c.closed {
		c.unlock()
		return
	}
	c.pending = nil
	c.unlock()
	if !c.lockOpen() {
		return
	}
	c.pending = nil
	c.mu.Unlock()
}

// A function called with the lock held that drops it and takes it
// again, or leaves it dropped on error: it works on its caller's lock.
func (c *Conn) flushLocked(send func([]int) error) error {
	p := c.pending
	c.mu.Unlock()
	if err := send(p); err != nil {
		return err
	}
	c.mu.Lock()
	return nil
}

// TryLock's false branch holds nothing.
func (c *Conn) Try() bool {
	if !c.mu.TryLock() {
		return false
	}
	defer c.mu.Unlock()
	return c.ready
}

func (c *Conn) TryRead() int {
	if c.rw.TryRLock() {
		n := len(c.pending)
		c.rw.RUnlock()
		return n
	}
	return -1
}

// Locked and unlocked on the same condition.
func (c *Conn) Conditional(shared bool) int {
	if shared {
		c.mu.Lock()
	}
	n := len(c.pending)
	if n == 0 {
		if shared {
			c.mu.Unlock()
		}
		return 0
	}
	if shared {
		c.mu.Unlock()
	}
	return n
}

// The unlock function is handed to the caller.
func (c *Conn) Hold() func() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return func() {}
	}
	return c.mu.Unlock
}

func (c *Conn) HoldClosure() (unlock func()) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	return func() { c.mu.Unlock() }
}

// The lock is handed to a goroutine.
func (c *Conn) Async(work func()) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	go func() {
		defer c.mu.Unlock()
		work()
	}()
}

// Paths that do not return.
func (c *Conn) Fatal() {
	c.mu.Lock()
	if c.closed {
		log.Fatal("closed")
	}
	if c.ready {
		os.Exit(1)
	}
	if c.next == nil {
		panic("no next")
	}
	c.mu.Unlock()
}

func helper(t *testing.T, c *Conn) {
	c.mu.Lock()
	if c.closed {
		t.Fatal("closed")
	}
	c.mu.Unlock()
}

// A callee whose net effect is balanced.
func (c *Conn) balanced() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

func (c *Conn) UsesBalanced() int {
	if c.balanced() == 0 {
		return 0
	}
	c.mu.Lock()
	c.pending = nil
	c.mu.Unlock()
	return 1
}

// A closure called where it is made.
func (c *Conn) ClosureUnlock() {
	c.mu.Lock()
	unlock := func() { c.mu.Unlock() }
	if c.closed {
		unlock()
		return
	}
	c.pending = nil
	unlock()
}

// The condition variable drops and retakes the lock.
func (c *Conn) Wait() int {
	c.mu.Lock()
	for !c.ready {
		c.cond.Wait()
	}
	if c.closed {
		c.mu.Unlock()
		return 0
	}
	n := len(c.pending)
	c.mu.Unlock()
	return n
}

// The lock is held across iterations and dropped in the middle of each.
func (c *Conn) Pump(send func(int)) {
	c.mu.Lock()
	for len(c.pending) > 0 {
		p := c.pending[0]
		c.pending = c.pending[1:]
		if p < 0 {
			continue
		}
		c.mu.Unlock()
		send(p)
		c.mu.Lock()
	}
	c.mu.Unlock()
}

// Each iteration locks another object: hand-over-hand and all shards.
func (c *Conn) Walk() {
	for n := c; n != nil; n = n.next {
		n.mu.Lock()
		if n.closed {
			continue
		}
		n.mu.Unlock()
	}
}

func (c *Conn) LockAll() {
	for _, s := range c.shards {
		s.mu.Lock()
	}
	for i := range c.shards {
		if c.shards[i].closed {
			continue
		}
		c.shards[i].mu.Unlock()
	}
}

// A break that leaves the loop holding the lock, released after it.
func (c *Conn) Poll() int {
	for {
		c.mu.Lock()
		if c.ready {
			break
		}
		c.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	n := len(c.pending)
	c.mu.Unlock()
	return n
}

// A break with a lock taken on one branch and released after the loop
// on the same condition.
func (c *Conn) Search(xs []int, lock bool) int {
	i := 0
	for ; i < len(xs); i++ {
		if lock {
			c.mu.Lock()
		}
		if xs[i] == 0 {
			break
		}
		if lock {
			c.mu.Unlock()
		}
	}
	return i
}

// Every iteration is released, whatever the branch.
func (c *Conn) Each(xs []int) {
	for _, x := range xs {
		c.mu.Lock()
		if x < 0 {
			c.mu.Unlock()
			continue
		}
		c.pending = append(c.pending, x)
		c.mu.Unlock()
	}
}

// Locks in a range-over-func body.
func (c *Conn) Seq(seq func(func(int) bool)) {
	for x := range seq {
		c.mu.Lock()
		if x < 0 {
			c.mu.Unlock()
			continue
		}
		c.pending = append(c.pending, x)
		c.mu.Unlock()
	}
}

// Returns that all hold the lock: an acquisition helper with a loop.
func (c *Conn) lockFirst(cs []*Conn) *Conn {
	for _, x := range cs {
		x.mu.Lock()
		if x.ready {
			return x
		}
		x.mu.Unlock()
	}
	return nil
}

// A read lock upgraded on one path: each path releases what it holds.
func (c *Conn) Upgrade() {
	c.rw.RLock()
	if c.ready {
		c.rw.RUnlock()
		return
	}
	c.rw.RUnlock()
	c.rw.Lock()
	c.ready = true
	c.rw.Unlock()
}

// The lock is released by a helper that takes the mutex.
func unlockMu(mu *sync.Mutex) { mu.Unlock() }

func (c *Conn) ViaParam() {
	c.mu.Lock()
	if c.closed {
		unlockMu(&c.mu)
		return
	}
	c.mu.Unlock()
}

// A deferred closure that releases on error only: the lock is held on
// success, for the caller.
func (c *Conn) lockChecked() (err error) {
	c.mu.Lock()
	defer func() {
		if err != nil {
			c.mu.Unlock()
		}
	}()
	if c.closed {
		return ErrClosed
	}
	return nil
}

// The unlock is stored for later.
type guard struct{ release func() }

func (c *Conn) Guard(g *guard) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	g.release = c.mu.Unlock
}

// A conditionally deferred unlock.
func (c *Conn) MaybeDefer(lock bool) int {
	if lock {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	if c.closed {
		return 0
	}
	return len(c.pending)
}

// The lock is held across iterations on purpose; continue keeps it.
func (c *Conn) Batch(in <-chan int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for v := range in {
		if v < 0 {
			continue
		}
		c.pending = append(c.pending, v)
	}
}

// A conditional lock helper whose caller hands the lock to a goroutine
// that releases it.
type Worker struct {
	mu   sync.Mutex
	busy bool
}

func (w *Worker) tryLock() error {
	w.mu.Lock()
	if w.busy {
		w.mu.Unlock()
		return ErrClosed
	}
	return nil
}

func (w *Worker) Run(work func()) {
	if w.tryLock() != nil {
		return
	}
	go func() {
		defer w.mu.Unlock()
		work()
	}()
}

// Twins of leaks.go's Retry and Probe that release the lock on every
// path.
func (w *Watch) RetryOK(try func() error) {
	for {
		w.mu.Lock()
		if err := try(); err != nil {
			w.mu.Unlock()
			continue
		}
		break
	}
	w.mu.Unlock()
}

func (w *Watch) ProbeOK(p string) {
	for {
		w.mu.Lock()
		if w.state[p] < 0 {
			w.mu.Unlock()
			break
		}
		w.mu.Unlock()
		break
	}
}

func (w *Watch) DialOK(dial func() error) {
	for i := 0; i < 3; i++ {
		w.mu.Lock()
		if err := dial(); err != nil {
			w.mu.Unlock()
			continue
		}
		break
	}
	w.mu.Unlock()
}

// An unlock helper's loop may not run: n is not known.
func (w *Watch) unlockAfter(n int, f func()) {
	for i := 0; i < n; i++ {
		f()
	}
	w.mu.Unlock()
}

// Twin of leaks.go's Remote.acquire.
func (r *Remote) acquireOK(wait func()) error {
	for {
		r.mu.RLock()
		closed := r.closed
		r.mu.RUnlock()
		if closed {
			return ErrClosed
		}
		wait()
	}
}

// A lock helper that returns holding the lock whatever it says, and
// never releases it itself.
func (r *Remote) lockChecked() error {
	r.mu.Lock()
	if r.closed {
		return ErrClosed
	}
	return nil
}

// Waits for the remote to open and returns holding the read lock, or an
// error holding nothing.
func (r *Remote) rlockOpen(wait func() bool) error {
	for {
		r.mu.RLock()
		if !r.closed {
			return nil
		}
		r.mu.RUnlock()
		if !wait() {
			return ErrClosed
		}
	}
}

// Returns holding the lock whatever it says, with a caller that releases
// it in any case: a lock helper, though it reports an error.
func (r *Remote) lockWhenOpen(wait func() bool) error {
	for {
		r.mu.Lock()
		if !r.closed {
			return nil
		}
		if !wait() {
			return ErrClosed
		}
		r.mu.Unlock()
	}
}

func (r *Remote) Update(wait func() bool) error {
	err := r.lockWhenOpen(wait)
	defer r.mu.Unlock()
	return err
}
