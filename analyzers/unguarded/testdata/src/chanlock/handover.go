package chanlock

import "sync/atomic"

// Batcher merges concurrent writes: a writer takes lockC in a select, or
// offers its write to the holder, which merges it or, when it is done,
// hands the lock over through mergedC instead of giving it back, as
// goleveldb's DB does. A writer the lock was handed to runs writeLocked
// holding it: silent.
type Batcher struct {
	lockC   chan struct{}
	mergeC  chan int
	mergedC chan bool
	seq     uint64
	n       int
}

func NewBatcher() *Batcher {
	return &Batcher{lockC: make(chan struct{}, 1), mergeC: make(chan int), mergedC: make(chan bool)}
}

func (b *Batcher) Write(v int) {
	select {
	case b.lockC <- struct{}{}:
	case b.mergeC <- v:
		if <-b.mergedC {
			return // merged into the holder's write
		}
		// The lock was handed over.
	}
	b.writeLocked(v)
}

// writeLocked writes v, merges a waiting write, and gives back (or hands
// over) the lock its caller holds.
func (b *Batcher) writeLocked(v int) {
	b.n += v
	seq := b.seq + 1
	atomic.StoreUint64(&b.seq, seq)
	handOver := false
	select {
	case x := <-b.mergeC:
		if x < 0 {
			handOver = true
		} else {
			b.n += x
			b.mergedC <- true
		}
	default:
	}
	b.unlock(handOver)
}

func (b *Batcher) unlock(handOver bool) {
	if handOver {
		b.mergedC <- false
	} else {
		<-b.lockC
	}
}

func (b *Batcher) Seq() uint64 { return atomic.LoadUint64(&b.seq) }

func (b *Batcher) Count() int {
	b.lockC <- struct{}{}
	defer func() { <-b.lockC }()
	return b.n
}

func (b *Batcher) Reset() {
	b.lockC <- struct{}{}
	b.n = 0
	<-b.lockC
}

// Skipper takes the same lock only when asked to: a writer that skips it
// runs writeLocked without it.
type Skipper struct {
	lockC chan struct{}
	seq   uint64
	n     int
}

func NewSkipper() *Skipper { return &Skipper{lockC: make(chan struct{}, 1)} }

func (s *Skipper) Write(v int, locked bool) {
	if !locked {
		s.lockC <- struct{}{}
	}
	s.writeLocked(v) // want `s.n is written \(in writeLocked\) in Write without s.lockC` `s.seq is read \(in writeLocked\) in Write without sync/atomic`
}

func (s *Skipper) writeLocked(v int) {
	s.n += v
	seq := s.seq + 1
	atomic.StoreUint64(&s.seq, seq)
	s.unlock()
}

func (s *Skipper) unlock() { <-s.lockC }

func (s *Skipper) Seq() uint64 { return atomic.LoadUint64(&s.seq) }

func (s *Skipper) Count() int {
	s.lockC <- struct{}{}
	defer func() { <-s.lockC }()
	return s.n
}

func (s *Skipper) Reset() {
	s.lockC <- struct{}{}
	s.n = 0
	<-s.lockC
}
