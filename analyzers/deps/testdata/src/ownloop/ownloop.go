// Package ownloop holds types with no synchronisation of their own:
// Poller's Start runs a goroutine that writes a field its callers read,
// so it runs concurrently with them; Copier's goroutine works on a copy,
// Plain starts none, and Set's is an iterator: none is concurrent.
package ownloop

// Poller counts polls in a goroutine Start starts.
type Poller struct {
	polls int
	name  string
}

// Start polls in a goroutine.
func (p *Poller) Start() {
	go func() { p.polls++ }()
}

// Polls returns the count.
func (p *Poller) Polls() int { return p.polls }

// Rename renames the poller.
func (p *Poller) Rename(n string) { p.name = n }

// Name returns the name.
func (p *Poller) Name() string { return p.name }

// Copier's goroutine works on a copy of its field.
type Copier struct{ n int }

// Start copies n into a goroutine.
func (c *Copier) Start() {
	n := c.n
	go func() { n++ }()
}

// Set sets n.
func (c *Copier) Set(n int) { c.n = n }

// Plain starts no goroutine.
type Plain struct{ n int }

// Inc increments n.
func (p *Plain) Inc() { p.n++ }

// Get returns n.
func (p *Plain) Get() int { return p.n }

// Set is a set whose Iter feeds a channel from a goroutine: an iterator,
// which runs while its caller drains it. Set is not concurrent.
type Set struct{ m map[int]bool }

// Add adds v.
func (s *Set) Add(v int) { s.m[v] = true }

// Iter returns the elements on a channel.
func (s *Set) Iter() <-chan int {
	ch := make(chan int)
	go func() {
		for v := range s.m {
			ch <- v
		}
		close(ch)
	}()
	return ch
}

// Cursor hands out a Set's elements.
type Cursor struct {
	C    <-chan int
	stop chan struct{}
}

// Cursor returns the elements through a Cursor a goroutine feeds: an
// iterator too.
func (s *Set) Cursor() *Cursor {
	ch := make(chan int)
	go func() {
		for v := range s.m {
			ch <- v
		}
		close(ch)
	}()
	return &Cursor{C: ch, stop: make(chan struct{})}
}
