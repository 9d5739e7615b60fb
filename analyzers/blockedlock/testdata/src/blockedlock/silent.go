package blockedlock

import "sync"

// Correct code: nothing below may be reported.

// The send happens after the unlock.
type After struct {
	mu sync.Mutex
	ch chan int
	n  int
}

func NewAfter() *After { return &After{ch: make(chan int)} }

func (a *After) Put(v int) {
	a.mu.Lock()
	a.n++
	a.mu.Unlock()
	a.ch <- v
}

func (a *After) Get() int {
	a.mu.Lock()
	a.n--
	a.mu.Unlock()
	return <-a.ch
}

// A select with a default does not block.
type Try struct {
	mu sync.Mutex
	ch chan int
}

func NewTry() *Try { return &Try{ch: make(chan int)} }

func (t *Try) Offer(v int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case t.ch <- v:
		return true
	default:
		return false
	}
}

func (t *Try) Poll() int {
	return <-t.ch
}

// A buffered channel.
type Buffered struct {
	mu   sync.Mutex
	done chan struct{}
}

func NewBuffered() *Buffered { return &Buffered{done: make(chan struct{}, 1)} }

func (b *Buffered) Signal() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done <- struct{}{}
}

func (b *Buffered) Wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	<-b.done
}

// The other side does not take the lock.
type Free struct {
	mu   sync.Mutex
	jobs chan int
	n    int
}

func NewFree() *Free {
	f := &Free{jobs: make(chan int)}
	go f.loop()
	return f
}

func (f *Free) Submit(j int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	f.jobs <- j
}

func (f *Free) loop() {
	for j := range f.jobs {
		_ = j
	}
}

// One receiver needs the lock, another does not.
type Mixed struct {
	mu sync.Mutex
	ch chan int
}

func NewMixed() *Mixed { return &Mixed{ch: make(chan int)} }

func (m *Mixed) Send(v int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ch <- v
}

func (m *Mixed) RecvCounted() int {
	v := <-m.ch
	m.mu.Lock()
	m.mu.Unlock()
	return v
}

func (m *Mixed) drain() {
	for range m.ch {
	}
}

func (m *Mixed) Start() { go m.drain() }

// A goroutine does not inherit its starter's lock.
type Spawn struct {
	mu sync.Mutex
	ch chan int
}

func NewSpawn() *Spawn { return &Spawn{ch: make(chan int)} }

func (s *Spawn) Run() {
	s.mu.Lock()
	go func() {
		s.ch <- 1
	}()
	go s.send()
	s.mu.Unlock()
}

func (s *Spawn) send() { s.ch <- 2 }

func (s *Spawn) Recv() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return <-s.ch
}

// Two read locks do not exclude each other.
type Readers struct {
	mu sync.RWMutex
	ch chan int
}

func NewReaders() *Readers { return &Readers{ch: make(chan int)} }

func (r *Readers) Send(v int) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.ch <- v
}

func (r *Readers) Recv() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return <-r.ch
}

// Channels from elsewhere and exported channels are not followed.
type Given struct {
	mu  sync.Mutex
	ch  chan int
	Out chan int
}

func NewGiven(ch chan int) *Given { return &Given{ch: ch, Out: make(chan int)} }

func (g *Given) Send(v int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ch <- v
	g.Out <- v
}

func (g *Given) Recv() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return <-g.ch + <-g.Out
}

func Forward(g *Given, ch chan int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	ch <- 1
}

// A different lock on the other side.
type Two struct {
	mu, other sync.Mutex
	ch        chan int
}

func NewTwo() *Two { return &Two{ch: make(chan int)} }

func (t *Two) Send(v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ch <- v
}

func (t *Two) Recv() int {
	t.other.Lock()
	defer t.other.Unlock()
	return <-t.ch
}

// The other side takes the lock on some paths only.
type Maybe struct {
	mu sync.Mutex
	ch chan int
}

func NewMaybe() *Maybe { return &Maybe{ch: make(chan int)} }

func (m *Maybe) Send(v int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ch <- v
}

func (m *Maybe) Recv(lock bool) int {
	if lock {
		m.mu.Lock()
		defer m.mu.Unlock()
	}
	return <-m.ch
}

// Workers that do not lock before Done.
type Group struct {
	mu sync.Mutex
	wg sync.WaitGroup
	n  int
}

func (g *Group) Start() {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		g.work()
	}()
}

func (g *Group) work() {}

func (g *Group) Stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.wg.Wait()
}

// A worker that may return before it locks.
type Early struct {
	mu   sync.Mutex
	wg   sync.WaitGroup
	skip bool
}

func (e *Early) work() {
	defer e.wg.Done()
	if e.skip {
		return
	}
	e.mu.Lock()
	e.mu.Unlock()
}

func (e *Early) Start() {
	e.wg.Add(1)
	go e.work()
}

func (e *Early) Stop() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.wg.Wait()
}

// The lock is released through a helper before the receive.
type Helper struct {
	mu sync.Mutex
	ch chan int
}

func NewHelper() *Helper { return &Helper{ch: make(chan int)} }

func (h *Helper) unlock() { h.mu.Unlock() }

func (h *Helper) Recv() int {
	h.mu.Lock()
	h.unlock()
	return <-h.ch
}

func (h *Helper) Send(v int) {
	h.mu.Lock()
	h.unlock()
	h.ch <- v
}

// An exported function calls the helper without the lock.
type Callers struct {
	mu sync.Mutex
	ch chan int
}

func NewCallers() *Callers { return &Callers{ch: make(chan int)} }

func (c *Callers) recv() int { return <-c.ch }

func (c *Callers) Locked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.recv()
}

func (c *Callers) Unlocked() int { return c.recv() }

func (c *Callers) Send(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ch <- v
}

// The lock is another object's: a parent sends to its child's channel
// holding its own lock; the child receives holding the child's.
type Node struct {
	mu    sync.Mutex
	ch    chan int
	child *Node
}

func NewNode() *Node { return &Node{ch: make(chan int), child: &Node{ch: make(chan int)}} }

func (n *Node) Push(v int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.child.ch <- v
}

func (n *Node) Pop() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return <-n.ch
}

// Waiting on a Cond with only its own lock held.
type Latch struct {
	mu   sync.Mutex
	cond *sync.Cond
	done bool
}

func NewLatch() *Latch {
	l := &Latch{}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func (l *Latch) Wait() {
	l.mu.Lock()
	for !l.done {
		l.cond.Wait()
	}
	l.mu.Unlock()
}

func (l *Latch) Release() {
	l.mu.Lock()
	l.done = true
	l.cond.Broadcast()
	l.mu.Unlock()
}
