package unguarded

import "sync"

// A Cursor is not safe for concurrent use: its mutex guards only what
// Close shares with the connection's goroutine, and Reset's plain write
// is the one goroutine's.
type Cursor struct {
	mu   sync.Mutex
	rows int
}

func (c *Cursor) Next() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rows++
	return c.rows < 10
}

func (c *Cursor) Close() {
	c.mu.Lock()
	c.rows = -1
	c.mu.Unlock()
}

func (c *Cursor) Reset() { c.rows = 0 }
