// Package chanlockdl has a self-deadlock on a channel used as a mutex,
// and correct twins: the same nesting on a semaphore of two slots and on
// a channel that is closed (neither is a mutex).
package chanlockdl

// Log serialises its writers with a channel of one slot.
type Log struct {
	lockC   chan struct{}
	entries []string
}

func NewLog() *Log { return &Log{lockC: make(chan struct{}, 1)} }

func (l *Log) unlock() { <-l.lockC }

func (l *Log) Append(e string) {
	l.lockC <- struct{}{}
	defer l.unlock()
	l.entries = append(l.entries, e)
}

func (l *Log) Len() int {
	l.lockC <- struct{}{}
	defer l.unlock()
	return len(l.entries)
}

// Snapshot takes the lock, then calls Len, which takes it again: the
// second send blocks forever on the full channel.
func (l *Log) Snapshot() []string {
	l.lockC <- struct{}{}
	defer l.unlock()
	out := make([]string, 0, l.Len()) // want `l.lockC is locked \(in Len\) while already held \(locked at chanlockdl.go:\d+:\d+\): a channel of one slot used as a mutex is full while held, this send never returns`
	return append(out, l.entries...)
}

// Pool admits two callers at once: nesting two admissions is fine while
// the other slot is free.
type Pool struct {
	sem  chan struct{}
	busy int
}

func NewPool() *Pool { return &Pool{sem: make(chan struct{}, 2)} }

func (p *Pool) Enter() { p.sem <- struct{}{} }
func (p *Pool) Leave() { <-p.sem }

func (p *Pool) Twice() {
	p.sem <- struct{}{}
	defer p.Leave()
	p.Enter()
	p.Leave()
}

// Feed is a stream of one slot that its producer closes.
type Feed struct{ c chan int }

func NewFeed() *Feed { return &Feed{c: make(chan int, 1)} }

func (f *Feed) Put(v int) { f.c <- v }

func (f *Feed) PutTwo(a, b int) {
	f.c <- a
	f.Put(b)
}

func (f *Feed) Take() int { return <-f.c }

func (f *Feed) Close() { close(f.c) }
