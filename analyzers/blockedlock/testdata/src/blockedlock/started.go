package blockedlock

import "sync"

// Store's Flush holds mu while it waits for the flush it starts, which
// takes mu itself: the goroutine does not release Flush's lock, it waits
// for it.
type Store struct {
	mu    sync.Mutex
	wg    sync.WaitGroup
	dirty []string
}

func (s *Store) flush() {
	defer s.wg.Done()
	s.mu.Lock()
	s.dirty = s.dirty[:0]
	s.mu.Unlock()
}

func (s *Store) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wg.Add(1)
	go s.flush()
	s.wg.Wait() // want `Wait on s.wg blocks while holding s.mu \(locked at started.go:22\), but the Done that would unblock it \(in flush at started.go:15\) happens only after locking s.mu`
}

// StoreOK waits for its flush before it takes the lock.
type StoreOK struct {
	mu    sync.Mutex
	wg    sync.WaitGroup
	dirty []string
}

func (s *StoreOK) flush() {
	defer s.wg.Done()
	s.mu.Lock()
	s.dirty = s.dirty[:0]
	s.mu.Unlock()
}

func (s *StoreOK) Flush() {
	s.wg.Add(1)
	go s.flush()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dirty = nil
}

// Handed hands its lock to the goroutine it starts, which releases it
// when the work is done; Wait then waits without the lock.
type Handed struct {
	mu sync.Mutex
	wg sync.WaitGroup
	n  int
}

func (h *Handed) Run() {
	h.mu.Lock()
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.n++
		h.mu.Unlock()
	}()
	h.wg.Wait()
}

// Snapshot holds mu while it waits on a channel it made for the compact
// it starts, which closes it only after taking mu.
type Snap struct {
	mu   sync.Mutex
	data map[string]int
	peer *Snap
}

func (s *Snap) compact(done chan<- struct{}) {
	s.mu.Lock()
	for k, v := range s.data {
		if v == 0 {
			delete(s.data, k)
		}
	}
	s.mu.Unlock()
	close(done)
}

func (s *Snap) Snapshot() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	done := make(chan struct{})
	go s.compact(done)
	<-done // want `receive from done blocks while holding s.mu \(locked at started.go:\d+\), but the close that would unblock it \(in compact at started.go:\d+\) happens only after locking s.mu`
	out := map[string]int{}
	for k, v := range s.data {
		out[k] = v
	}
	return out
}

// The goroutine holds mu while it sends; the function takes mu before
// it receives.
func (s *Snap) Count() int {
	res := make(chan int)
	go func() {
		s.mu.Lock()
		res <- len(s.data) // want `send on res blocks while holding s.mu \(locked at started.go:\d+\), but the receive that would unblock it \(in Count at started.go:\d+\) happens only after locking s.mu`
		s.mu.Unlock()
	}()
	s.mu.Lock()
	s.data = nil
	s.mu.Unlock()
	return <-res
}

// SnapshotOK waits for compact before it takes the lock.
func (s *Snap) SnapshotOK() int {
	done := make(chan struct{})
	go s.compact(done)
	<-done
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.data)
}

// Peer holds its own lock while the compact of another object, which
// takes that object's lock, runs: another mutex of the same type.
func (s *Snap) Peer() {
	s.mu.Lock()
	defer s.mu.Unlock()
	done := make(chan struct{})
	go s.peer.compact(done)
	<-done
}

// Buffered: the goroutine's send does not wait for the receive.
func (s *Snap) Buffered() int {
	res := make(chan int, 1)
	go func() {
		s.mu.Lock()
		res <- len(s.data)
		s.mu.Unlock()
	}()
	s.mu.Lock()
	s.mu.Unlock()
	return <-res
}

// Escapes: the channel is also handed to code not followed.
func (s *Snap) Escapes(sink func(chan struct{})) {
	s.mu.Lock()
	defer s.mu.Unlock()
	done := make(chan struct{})
	sink(done)
	go s.compact(done)
	<-done
}

// Refresh holds mu while it waits for workers that each take mu.
func (s *Snap) Refresh(keys []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.mu.Lock()
			s.data[k]++
			s.mu.Unlock()
		}()
	}
	wg.Wait() // want `Wait on wg blocks while holding s.mu \(locked at started.go:\d+\), but the Done that would unblock it \(in Refresh\$1 at started.go:\d+\) happens only after locking s.mu`
}

// RefreshOK waits for its workers before it takes the lock.
func (s *Snap) RefreshOK(keys []string) {
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.mu.Lock()
			s.data[k]++
			s.mu.Unlock()
		}()
	}
	wg.Wait()
	s.mu.Lock()
	s.data = nil
	s.mu.Unlock()
}

// RefreshFree: the workers do not need the lock Refresh holds.
func (s *Snap) RefreshFree(keys []string, out chan<- string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- k
		}()
	}
	wg.Wait()
}

// Fetch returns a channel a goroutine sends the value on, after taking
// the lock; Get receives from it with the lock held.
type Client struct {
	mu    sync.Mutex
	cache map[string]int
}

func (c *Client) fetch(k string) <-chan int {
	ch := make(chan int)
	go func() {
		c.mu.Lock()
		v := c.cache[k]
		c.mu.Unlock()
		ch <- v
	}()
	return ch
}

func (c *Client) Get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return <-c.fetch(k) // want `receive from ch blocks while holding c.mu \(locked at started.go:\d+\), but the send that would unblock it \(in fetch\$1 at started.go:\d+\) happens only after locking c.mu`
}

// GetOK receives without the lock.
func (c *Client) GetOK(k string) int {
	v := <-c.fetch(k)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cache[k] = v
	return v
}

// GetOther holds the lock of another client.
func (c *Client) GetOther(o *Client, k string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return <-c.fetch(k)
}
