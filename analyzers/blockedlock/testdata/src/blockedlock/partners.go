package blockedlock

import "sync"

// Status's syncer receives an update, then deletes under mu, and is
// called in a loop: Set holds mu while it sends, so a second Set blocks
// on the send while the syncer waits for mu.
type Status struct {
	mu      sync.RWMutex
	updates chan bool
}

func NewStatus() *Status {
	s := &Status{updates: make(chan bool)}
	go func() {
		for {
			s.syncOnce()
		}
	}()
	return s
}

func (s *Status) syncOnce() {
	<-s.updates
	s.delete()
}

func (s *Status) delete() {
	s.mu.Lock()
	defer s.mu.Unlock()
}

func (s *Status) Set() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.updates <- true // want `send on s.updates blocks while holding s.mu .*, but the receive that would unblock it \(in syncOnce at partners.go:\d+\) happens after locking s.mu on some path`
}

// The twin's syncer takes the lock before it receives again only
// through a buffered channel's sender: Set never blocks.
type StatusOK struct {
	mu      sync.RWMutex
	updates chan bool
}

func NewStatusOK() *StatusOK {
	s := &StatusOK{updates: make(chan bool, 1)}
	go func() {
		for {
			s.syncOnce()
		}
	}()
	return s
}

func (s *StatusOK) syncOnce() {
	<-s.updates
	s.mu.Lock()
	s.mu.Unlock()
}

func (s *StatusOK) Set() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.updates <- true
}

// Framer's only other operation on reset is a close under the lock:
// nothing in the package can end WriteFrame's send while it holds the
// lock.
type Framer struct {
	mu    sync.Mutex
	reset chan bool
	done  chan bool
}

func NewFramer() *Framer {
	f := &Framer{reset: make(chan bool), done: make(chan bool)}
	go f.monitor()
	return f
}

func (f *Framer) monitor() {
	<-f.done
	f.mu.Lock()
	close(f.reset)
	f.mu.Unlock()
}

func (f *Framer) WriteFrame() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reset <- true // want `send on f.reset blocks while holding f.mu .*, but the close that would unblock it \(in monitor at partners.go:\d+\) happens with f.mu held`
}

// The twin closes without the lock.
type FramerOK struct {
	mu    sync.Mutex
	reset chan bool
	done  chan bool
}

func NewFramerOK() *FramerOK {
	f := &FramerOK{reset: make(chan bool), done: make(chan bool)}
	go f.monitor()
	return f
}

func (f *FramerOK) monitor() {
	<-f.done
	close(f.reset)
}

func (f *FramerOK) WriteFrame() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reset <- true
}

// Broadcasts' goroutine closes donec when its loop ends, and the loop's
// body locks mu: stop waits for donec holding mu.
type Broadcasts struct {
	mu      sync.Mutex
	updatec chan int
	donec   chan struct{}
}

func NewBroadcasts() *Broadcasts {
	b := &Broadcasts{updatec: make(chan int, 1), donec: make(chan struct{})}
	go func() {
		defer close(b.donec)
		for u := range b.updatec {
			b.coalesce(u)
		}
	}()
	return b
}

func (b *Broadcasts) coalesce(int) {
	b.mu.Lock()
	b.mu.Unlock()
}

func (b *Broadcasts) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.updatec)
	<-b.donec // want `receive from b.donec blocks while holding b.mu .*, but the close that would unblock it \(in NewBroadcasts\$1 at partners.go:\d+\) happens after locking b.mu on some path`
}

// The twin's loop does not lock.
type BroadcastsOK struct {
	mu      sync.Mutex
	updatec chan int
	donec   chan struct{}
	n       int
}

func NewBroadcastsOK() *BroadcastsOK {
	b := &BroadcastsOK{updatec: make(chan int, 1), donec: make(chan struct{})}
	go func() {
		defer close(b.donec)
		for u := range b.updatec {
			_ = u
		}
	}()
	return b
}

func (b *BroadcastsOK) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.updatec)
	<-b.donec
}
