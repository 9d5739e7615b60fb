// HTTP handlers that serve an event stream until their client leaves:
// Broker counts the streams it served without its lock; SafeBroker, its
// twin, is correct.

package objects

import (
	"fmt"
	"net/http"
	"sync"
)

// Broker streams published messages to its clients.
type Broker struct {
	mu      sync.Mutex
	clients map[chan string]bool
	served  int
}

// NewBroker returns a broker with no client.
func NewBroker() *Broker { return &Broker{clients: map[chan string]bool{}} }

// ServeHTTP streams messages to the client until it leaves.
func (b *Broker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	b.served++ // the race
	ch := make(chan string, 8)
	b.mu.Lock()
	b.clients[ch] = true
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.clients, ch)
		b.mu.Unlock()
	}()
	for {
		select {
		case m := <-ch:
			fmt.Fprintf(w, "data: %s\n\n", m)
		case <-r.Context().Done():
			return
		}
	}
}

// Publish sends m to every client.
func (b *Broker) Publish(m string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.clients {
		select {
		case ch <- m:
		default:
		}
	}
}

// Served returns the number of streams served.
func (b *Broker) Served() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.served
}

// SafeBroker is Broker with its streams counted under the lock.
type SafeBroker struct {
	mu      sync.Mutex
	clients map[chan string]bool
	served  int
}

// NewSafeBroker returns a broker with no client.
func NewSafeBroker() *SafeBroker { return &SafeBroker{clients: map[chan string]bool{}} }

// ServeHTTP streams messages to the client until it leaves.
func (b *SafeBroker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	ch := make(chan string, 8)
	b.mu.Lock()
	b.served++
	b.clients[ch] = true
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.clients, ch)
		b.mu.Unlock()
	}()
	for {
		select {
		case m := <-ch:
			fmt.Fprintf(w, "data: %s\n\n", m)
		case <-r.Context().Done():
			return
		}
	}
}

// Publish sends m to every client.
func (b *SafeBroker) Publish(m string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.clients {
		select {
		case ch <- m:
		default:
		}
	}
}

// Served returns the number of streams served.
func (b *SafeBroker) Served() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.served
}
