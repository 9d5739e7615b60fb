package blockedlock

import "sync"

// refresher hands each waiter a channel of one slot, appended to a slice
// under the lock; Done answers each with one send and a close, holding
// the lock. A send into an empty slot does not block: silent.
type refresher struct {
	mu    sync.Mutex
	chans []chan error
}

func (r *refresher) Wait() chan error {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := make(chan error, 1)
	r.chans = append(r.chans, ch)
	return ch
}

func (r *refresher) Done(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ch := range r.chans {
		ch <- err
		close(ch)
	}
	r.chans = r.chans[:0]
}

// waiters appends unbuffered channels: Done's send blocks until Next
// receives, and Next needs the lock Done holds.
type waiters struct {
	mu    sync.Mutex
	chans []chan error
}

func (w *waiters) Add() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.chans = append(w.chans, make(chan error))
}

func (w *waiters) Next() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return <-w.chans[0] // want `receive from w.chans\[0\] blocks while holding w.mu`
}

func (w *waiters) Done(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ch := range w.chans {
		ch <- err // want `send on w.chans\[i\] blocks while holding w.mu`
	}
	w.chans = w.chans[:0]
}

// pending takes its channels from its callers: their size is unknown,
// so nothing is said.
type pending struct {
	mu    sync.Mutex
	chans []chan int
}

func (p *pending) Add(ch chan int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.chans = append(p.chans, ch)
}

func (p *pending) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ch := range p.chans {
		ch <- 1
	}
}

func (p *pending) Next() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return <-p.chans[0]
}

// queue removes the channel it answers from its slice of unbuffered
// channels: the slice still holds only the channels Add made, so the
// send under the lock that Take needs is followed.
type queue struct {
	mu    sync.Mutex
	chans []chan int
}

func (q *queue) Add() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.chans = append(q.chans, make(chan int))
}

func (q *queue) Take() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return <-q.chans[0] // want `receive from q.chans\[0\] blocks while holding q.mu`
}

func (q *queue) Answer(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.chans[i] <- i // want `send on q.chans\[i\] blocks while holding q.mu`
	q.chans = append(q.chans[:i], q.chans[i+1:]...)
}
