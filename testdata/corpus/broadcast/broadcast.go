// Package broadcast fans messages out to subscribers.
package broadcast

import (
	"errors"
	"regexp"
	"sync"
	"sync/atomic"
)

// ErrClosed is returned by Subscribe once the hub has shut down.
var ErrClosed = errors.New("broadcast: closed")

// Hub delivers every published message to each current subscriber. The
// hub holds one reference for its owner and one for each subscription;
// it shuts down when the owner has called Close and every subscription
// has been cancelled. A Hub is safe for concurrent use by multiple
// goroutines.
type Hub struct {
	refs atomic.Int32
	size int

	mu      sync.Mutex
	subs    map[int]*subscriber
	nextID  int
	sent    int
	closing bool
}

type subscriber struct {
	ch     chan string
	filter *regexp.Regexp
}

// NewHub returns a hub whose subscribers buffer up to size messages (at
// least 1).
func NewHub(size int) *Hub {
	if size < 1 {
		size = 1
	}
	h := &Hub{size: size, subs: make(map[int]*subscriber)}
	h.refs.Store(1)
	return h
}

// Subscribe registers a new subscriber to the messages matching the
// regular expression filter (all messages when filter is empty) and
// returns its id and channel.
func (h *Hub) Subscribe(filter string) (int, <-chan string, error) {
	re, err := regexp.Compile(filter)
	if err != nil {
		return 0, nil, err
	}
	if !h.retain() {
		return 0, nil, ErrClosed
	}
	return h.register(re)
}

// retain takes a reference unless the hub has shut down.
func (h *Hub) retain() bool {
	n := h.refs.Load()
	if n == 0 {
		return false
	}
	h.refs.Store(n + 1)
	return true
}

// register adds a subscriber.
func (h *Hub) register(filter *regexp.Regexp) (int, <-chan string, error) {
	s := &subscriber{make(chan string, h.size), filter}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nextID++
	h.subs[h.nextID] = s
	return h.nextID, s.ch, nil
}

// Cancel ends subscription id and closes its channel. It reports false if
// id is not a current subscription.
func (h *Hub) Cancel(id int) bool {
	h.mu.Lock()
	s, ok := h.subs[id]
	if ok {
		delete(h.subs, id)
		close(s.ch)
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
	for _, s := range h.subs {
		if !s.filter.MatchString(msg) {
			continue
		}
		select {
		case s.ch <- msg:
			n++
		default:
		}
	}
	h.sent += n
	return n
}

// Subscribers returns the number of current subscriptions.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

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

// release drops one reference and shuts the hub down on the last one.
func (h *Hub) release() {
	if h.refs.Add(-1) > 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.subs = nil
}
