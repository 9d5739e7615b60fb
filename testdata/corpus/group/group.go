// Package group provides a cancellation scope shared by a set of
// operations.
package group

import (
	"errors"
	"sync"
)

// ErrCancelled is returned by Join once the group has been cancelled.
var ErrCancelled = errors.New("group: cancelled")

// Group tracks its members and lets any of them cancel the whole group. A
// Group is safe for concurrent use by multiple goroutines.
type Group struct {
	done chan struct{}

	mu        sync.Mutex
	cancelled bool
	reason    string
	members   int
}

// NewGroup returns an active Group with no members.
func NewGroup() *Group {
	return &Group{done: make(chan struct{})}
}

// Join adds a member.
func (g *Group) Join() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cancelled {
		return ErrCancelled
	}
	g.members++
	return nil
}

// Leave removes a member.
func (g *Group) Leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.members > 0 {
		g.members--
	}
}

// Members returns the number of members.
func (g *Group) Members() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.members
}

// Done returns a channel that is closed when the group is cancelled.
func (g *Group) Done() <-chan struct{} { return g.done }

// Err returns nil while the group is active and an error carrying the
// cancellation reason afterwards.
func (g *Group) Err() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.cancelled {
		return nil
	}
	return errors.New("group: cancelled: " + g.reason)
}

// Cancel cancels the group with reason and reports whether this call did
// it.
func (g *Group) Cancel(reason string) bool {
	if g.cancelled {
		return false
	}
	g.mu.Lock()
	g.cancelled = true
	g.reason = reason
	g.mu.Unlock()
	close(g.done)
	return true
}
