// Package eventbus delivers messages published on a topic to the
// subscribers of that topic and keeps a history of published messages.
package eventbus

import (
	"sort"
	"sync"
)

type subscriber struct {
	topic string
	fn    func(string)
}

// Bus is a topic-based publish/subscribe hub. A Bus is safe for concurrent
// use by multiple goroutines.
type Bus struct {
	subsMu sync.Mutex
	subs   map[int]subscriber
	nextID int

	histMu  sync.Mutex
	history []string
}

// NewBus returns a Bus with no subscribers.
func NewBus() *Bus {
	return &Bus{subs: make(map[int]subscriber)}
}

// Subscribe registers fn for messages on topic and returns a subscription
// id.
func (b *Bus) Subscribe(topic string, fn func(string)) int {
	b.subsMu.Lock()
	defer b.subsMu.Unlock()
	b.nextID++
	b.subs[b.nextID] = subscriber{topic: topic, fn: fn}
	return b.nextID
}

// Unsubscribe removes the subscription id and reports whether it existed.
func (b *Bus) Unsubscribe(id int) bool {
	b.subsMu.Lock()
	defer b.subsMu.Unlock()
	_, ok := b.subs[id]
	delete(b.subs, id)
	return ok
}

// Publish records msg and delivers it to the subscribers of topic. It
// returns the number of subscribers reached.
func (b *Bus) Publish(topic, msg string) int {
	var fns []func(string)
	b.histMu.Lock()
	b.history = append(b.history, topic+": "+msg)
	b.subsMu.Lock()
	for _, s := range b.subs {
		if s.topic == topic && s.fn != nil {
			fns = append(fns, s.fn)
		}
	}
	b.subsMu.Unlock()
	b.histMu.Unlock()
	for _, fn := range fns {
		fn(msg)
	}
	return len(fns)
}

// History returns the published messages, oldest first.
func (b *Bus) History() []string {
	b.histMu.Lock()
	defer b.histMu.Unlock()
	return append([]string(nil), b.history...)
}

// Topics returns the topics that have subscribers, sorted.
func (b *Bus) Topics() []string {
	b.subsMu.Lock()
	defer b.subsMu.Unlock()
	seen := make(map[string]bool)
	var topics []string
	for _, s := range b.subs {
		if !seen[s.topic] {
			seen[s.topic] = true
			topics = append(topics, s.topic)
		}
	}
	sort.Strings(topics)
	return topics
}

// Reset drops all subscriptions and the history.
func (b *Bus) Reset() {
	b.subsMu.Lock()
	defer b.subsMu.Unlock()
	clear(b.subs)
	b.histMu.Lock()
	b.history = nil
	b.histMu.Unlock()
}
