package unguarded

import "sync"

// Lock handoff: a method holds the lock, wakes a goroutine of the type
// through a channel and waits for it (on a WaitGroup, or a reply channel)
// before unlocking. The goroutine's accesses between the wake-up and its
// signal run while the method still holds the lock: they are guarded by
// it. The variants that do not wait are reported.

type HandPool struct {
	mu    sync.Mutex
	items []int
	wake  chan int
	wg    sync.WaitGroup
}

func NewHandPool() *HandPool {
	p := &HandPool{wake: make(chan int)}
	go p.waiter()
	return p
}

func (p *HandPool) waiter() {
	for x := range p.wake {
		p.items = append(p.items, x) // not reported: Put holds p.mu until Done
		p.wg.Done()
	}
}

func (p *HandPool) Put(x int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wg.Add(1)
	p.wake <- x
	p.wg.Wait()
}

func (p *HandPool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.items)
}

func (p *HandPool) Reset() {
	p.mu.Lock()
	p.items = nil
	p.mu.Unlock()
}

// A reply channel instead of a WaitGroup.
type ReplyServer struct {
	mu    sync.Mutex
	state map[string]int
	req   chan string
	done  chan struct{}
}

func NewReplyServer() *ReplyServer {
	s := &ReplyServer{state: map[string]int{}, req: make(chan string), done: make(chan struct{})}
	go s.serve()
	return s
}

func (s *ReplyServer) serve() {
	for k := range s.req {
		s.state[k]++ // not reported: Do holds s.mu until the reply
		s.done <- struct{}{}
	}
}

func (s *ReplyServer) Do(k string) {
	s.mu.Lock()
	s.req <- k
	<-s.done
	s.mu.Unlock()
}

func (s *ReplyServer) Get(k string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state[k]
}

func (s *ReplyServer) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.state)
}

// The twin that does not wait: Put unlocks as soon as the waiter has the
// value, and the waiter's append races with Len.
type HandQueue struct {
	mu    sync.Mutex
	items []int
	wake  chan int
	wg    sync.WaitGroup
}

func NewHandQueue() *HandQueue {
	q := &HandQueue{wake: make(chan int)}
	go q.waiter()
	return q
}

func (q *HandQueue) waiter() {
	for x := range q.wake {
		q.items = append(q.items, x) // want `q.items is written in waiter without q.mu, which is held at its \d+ accesses in HandQueue's other methods`
		q.wg.Done()
	}
}

func (q *HandQueue) Put(x int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.wg.Add(1)
	q.wake <- x
}

func (q *HandQueue) Flush() {
	q.wg.Wait()
}

func (q *HandQueue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

func (q *HandQueue) Reset() {
	q.mu.Lock()
	q.items = nil
	q.mu.Unlock()
}

// The goroutine's access after its signal is not guarded: the sender may
// have unlocked by then.
type ReplyServer2 struct {
	mu    sync.Mutex
	state map[string]int
	req   chan string
	done  chan struct{}
}

func NewReplyServer2() *ReplyServer2 {
	s := &ReplyServer2{state: map[string]int{}, req: make(chan string), done: make(chan struct{})}
	go s.serve()
	return s
}

func (s *ReplyServer2) serve() {
	for k := range s.req {
		s.done <- struct{}{}
		s.state[k]++ // want `s.state is written in serve without s.mu, which is held at its \d+ accesses in ReplyServer2's other methods`
	}
}

func (s *ReplyServer2) Do(k string) {
	s.mu.Lock()
	s.req <- k
	<-s.done
	s.mu.Unlock()
}

func (s *ReplyServer2) Get(k string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state[k]
}

func (s *ReplyServer2) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.state)
}
