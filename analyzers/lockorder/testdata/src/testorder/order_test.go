package testorder

import (
	"sync"
	"testing"
)

// The test holds the package's locks in the other order, from one
// goroutine: not the type's inversion.
func TestPut(t *testing.T) {
	c := &Cache{j: &Journal{}, m: map[string]int{}}
	c.j.mu.Lock()
	c.mu.Lock()
	c.mu.Unlock()
	c.j.mu.Unlock()
}

// Code under test written in the test file (as in a kernel of a bug) is
// reported as any other.
type Gate struct{ mu sync.Mutex }

type Door struct{ mu sync.Mutex }

func open(g *Gate, d *Door) {
	g.mu.Lock()
	d.mu.Lock()
	d.mu.Unlock()
	g.mu.Unlock()
}

func shut(g *Gate, d *Door) {
	d.mu.Lock()
	g.mu.Lock() // want `lock order inversion`
	g.mu.Unlock()
	d.mu.Unlock()
}
