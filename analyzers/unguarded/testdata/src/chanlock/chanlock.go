// Package chanlock has channels used as mutexes (a buffer of one, a send
// to lock, a receive to unlock) next to channels that are not: a
// semaphore of four slots and a token channel filled where it is made.
package chanlock

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

// Journal serialises its writers with a channel of one slot, taken in a
// select (or a closed journal) and given back by a helper, as goleveldb's
// writeLockC is.
type Journal struct {
	lockC   chan struct{}
	closeC  chan struct{}
	seq     uint64
	entries []string
}

func NewJournal() *Journal {
	return &Journal{lockC: make(chan struct{}, 1), closeC: make(chan struct{})}
}

func (j *Journal) Append(e string) error {
	select {
	case j.lockC <- struct{}{}:
	case <-j.closeC:
		return errClosed
	}
	j.entries = append(j.entries, e)
	j.seq++
	j.unlock()
	return nil
}

// unlock gives back the lock its caller took.
func (j *Journal) unlock() { <-j.lockC }

func (j *Journal) Seq() uint64 {
	j.lockC <- struct{}{}
	defer func() { <-j.lockC }()
	return j.seq
}

func (j *Journal) Len() int {
	j.lockC <- struct{}{}
	n := len(j.entries)
	<-j.lockC
	return n
}

// TrySeq takes the lock only when it is free.
func (j *Journal) TrySeq() (uint64, bool) {
	select {
	case j.lockC <- struct{}{}:
	default:
		return 0, false
	}
	s := j.seq
	j.unlock()
	return s, true
}

// Peek forgets the lock.
func (j *Journal) Peek() uint64 {
	return j.seq // want `j.seq is read in Peek without j.lockC`
}

// Workers runs at most four functions at once: sem is a semaphore, not
// a mutex, and done needs mu.
type Workers struct {
	mu   sync.Mutex
	sem  chan struct{}
	done int
}

func NewWorkers() *Workers { return &Workers{sem: make(chan struct{}, 4)} }

func (w *Workers) Run(f func()) {
	w.sem <- struct{}{}
	f()
	w.done++ // want `w.done is written in Run without w.mu`
	<-w.sem
}

func (w *Workers) Done() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.done
}

func (w *Workers) Reset() {
	w.mu.Lock()
	w.done = 0
	w.mu.Unlock()
}

// Gate's channel holds its one token from the start: a receive takes it.
// It is no mutex of the send-to-lock kind, and n needs mu.
type Gate struct {
	mu  sync.Mutex
	tok chan struct{}
	n   int
}

func NewGate() *Gate {
	g := &Gate{tok: make(chan struct{}, 1)}
	g.tok <- struct{}{}
	return g
}

func (g *Gate) Enter() {
	<-g.tok
	g.n++ // want `g.n is written in Enter without g.mu`
	g.tok <- struct{}{}
}

func (g *Gate) N() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

func (g *Gate) Reset() {
	g.mu.Lock()
	g.n = 0
	g.mu.Unlock()
}

// Stream's channel is closed: a stream of one slot, not a mutex.
type Stream struct {
	mu  sync.Mutex
	c   chan int
	got int
}

func NewStream() *Stream { return &Stream{c: make(chan int, 1)} }

func (s *Stream) Put(v int) { s.c <- v }

func (s *Stream) Take() {
	v := <-s.c
	s.got += v // want `s.got is written in Take without s.mu`
}

func (s *Stream) Close() { close(s.c) }

func (s *Stream) Got() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got
}

func (s *Stream) Reset() {
	s.mu.Lock()
	s.got = 0
	s.mu.Unlock()
}

// Loop is woken by a channel of one slot that callers fill without
// blocking and its goroutine drains among other cases: a wake-up, not a
// lock. Kick's write of dirty is guarded by nothing the loop takes.
type Loop struct {
	mu    sync.Mutex
	wake  chan struct{}
	done  chan struct{}
	dirty int
}

func NewLoop() *Loop {
	l := &Loop{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go l.run()
	return l
}

func (l *Loop) Kick() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
	l.dirty++ // want `l.dirty is written in Kick without l.mu`
}

func (l *Loop) run() {
	for {
		select {
		case <-l.wake:
			l.mu.Lock()
			l.dirty = 0
			l.mu.Unlock()
		case <-l.done:
			return
		}
	}
}

func (l *Loop) Dirty() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dirty
}
