// Package fanout delivers messages to every current subscriber.
package fanout

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ErrClosed is returned by Subscribe once the hub has shut down.
var ErrClosed = errors.New("fanout: closed")

// Hub delivers every published message to each current subscriber. The
// hub holds one reference for its owner and one for each subscription;
// it shuts down when the owner has called Close and every subscription
// has been cancelled. A Hub is safe for concurrent use by multiple
// goroutines.
type Hub struct {
	refs atomic.Int32
	size int

	mu      sync.Mutex
	subs    map[int]chan string
	nextID  int
	closing bool
}

// NewHub returns a hub whose subscribers buffer up to size messages (at
// least 1).
func NewHub(size int) *Hub {
	if size < 1 {
		size = 1
	}
	h := &Hub{size: size, subs: make(map[int]chan string)}
	h.refs.Store(1)
	return h
}

// Subscribe registers a new subscriber and returns its id and channel.
func (h *Hub) Subscribe() (int, <-chan string, error) {
	if !h.retain() {
		return 0, nil, ErrClosed
	}
	ch := make(chan string, h.size)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nextID++
	h.subs[h.nextID] = ch
	return h.nextID, ch, nil
}

// Cancel ends subscription id and closes its channel. It reports false if
// id is not a current subscription.
func (h *Hub) Cancel(id int) bool {
	h.mu.Lock()
	ch, ok := h.subs[id]
	if ok {
		delete(h.subs, id)
		close(ch)
	}
	h.mu.Unlock()
	if ok {
		h.release()
	}
	return ok
}

// Publish delivers msg to every subscriber with room for it and returns
// how many received it.
func (h *Hub) Publish(msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, ch := range h.subs {
		select {
		case ch <- msg:
			n++
		default:
		}
	}
	return n
}

// Refs returns the number of references held: the owner's until Close,
// and one per subscription.
func (h *Hub) Refs() int { return int(h.refs.Load()) }

// Close gives up the owner's reference. Subscriptions stay open until
// they are cancelled. Calling Close more than once does nothing.
func (h *Hub) Close() {
	h.mu.Lock()
	closing := h.closing
	h.closing = true
	h.mu.Unlock()
	if !closing {
		h.release()
	}
}

// retain takes a reference unless the hub has shut down.
func (h *Hub) retain() bool {
	for {
		n := h.refs.Load()
		if n == 0 {
			return false
		}
		if h.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// release drops one reference and shuts the hub down on the last one.
// Once the count is zero retain never raises it again, so no subscriber
// can be added after the shutdown.
func (h *Hub) release() {
	if h.refs.Add(-1) > 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.subs = nil
}
