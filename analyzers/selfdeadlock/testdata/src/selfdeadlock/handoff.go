package selfdeadlock

import "sync"

// Conn hands its lock to a goroutine that receives one message and then
// unlocks it; Next waits for that goroutine's signal before it takes the
// lock itself: silent.
type Conn struct {
	mu   sync.Mutex
	msg  string
	recv func() string
}

func (c *Conn) signal() chan struct{} {
	ch := make(chan struct{})
	c.mu.Lock()
	go func() {
		c.msg = c.recv()
		c.mu.Unlock()
		close(ch)
	}()
	return ch
}

func (c *Conn) Next() string {
	<-c.signal()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.msg
}

// stuck's goroutine does not unlock: Stuck still holds the lock when it
// takes it again.
func (c *Conn) stuck() chan struct{} {
	ch := make(chan struct{})
	c.mu.Lock()
	go func() {
		c.msg = c.recv()
		close(ch)
	}()
	return ch
}

func (c *Conn) Stuck() string {
	<-c.stuck()
	c.mu.Lock() // want `c.mu is locked while already held`
	defer c.mu.Unlock()
	return c.msg
}
