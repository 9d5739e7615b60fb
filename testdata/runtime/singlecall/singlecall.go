// Package singlecall has a race inside one call: Fetch starts the work
// in a goroutine and, when it times out, returns the result field while
// the goroutine may still write it. Every test of Fetch can show it,
// whatever runs beside it; it is Fetch's defect alone.
package singlecall

import (
	"sync"
	"time"
)

// Client fetches values. It is safe for concurrent use.
type Client struct {
	mu    sync.Mutex
	last  string
	calls int
}

// NewClient returns a client.
func NewClient() *Client { return &Client{} }

// Fetch returns the value of key, or what the last fetch left when this
// one takes longer than a millisecond.
func (c *Client) Fetch(key string) string {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
	done := make(chan struct{})
	go func() {
		time.Sleep(10 * time.Millisecond)
		c.last = "value of " + key
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Millisecond):
	}
	return c.last
}

// Calls returns the number of fetches.
func (c *Client) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}
