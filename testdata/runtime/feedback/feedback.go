// Package feedback holds bugs that only arguments made by earlier calls
// reach: the subscription a Subscribe returned, the encoding a MarshalJSON
// returned. A generated subscription is unknown to the hub and invalid
// JSON is refused, so both calls return at their first check. Each has a
// correct twin.
package feedback

import (
	"encoding/json"
	"errors"
	"sync"
)

// ErrUnknown is returned for a subscription the hub does not know.
var ErrUnknown = errors.New("feedback: unknown subscription")

// A Sub is a subscription: its messages arrive on C.
type Sub struct {
	c chan string
}

// C returns the channel of the subscription's messages.
func (s *Sub) C() <-chan string { return s.c }

// Hub delivers messages to its subscriptions. Unsubscribe counts the
// subscriptions left outside the lock, once it has found the
// subscription: only a subscription the hub made gets there.
type Hub struct {
	mu    sync.Mutex
	subs  map[*Sub]bool
	count int
}

// NewHub returns a hub without subscriptions.
func NewHub() *Hub { return &Hub{subs: map[*Sub]bool{}} }

// Subscribe returns a new subscription.
func (h *Hub) Subscribe() *Sub {
	s := &Sub{c: make(chan string, 16)}
	h.mu.Lock()
	h.subs[s] = true
	h.count++
	h.mu.Unlock()
	return s
}

// Unsubscribe ends subscription s.
func (h *Hub) Unsubscribe(s *Sub) error {
	h.mu.Lock()
	if !h.subs[s] {
		h.mu.Unlock()
		return ErrUnknown
	}
	delete(h.subs, s)
	h.mu.Unlock()
	h.count--
	return nil
}

// Publish delivers msg to every subscription with room for it and
// returns how many subscriptions there are.
func (h *Hub) Publish(msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		select {
		case s.c <- msg:
		default:
		}
	}
	return h.count
}

// SafeHub is Hub with the count under the lock.
type SafeHub struct {
	mu    sync.Mutex
	subs  map[*Sub]bool
	count int
}

// NewSafeHub returns a hub without subscriptions.
func NewSafeHub() *SafeHub { return &SafeHub{subs: map[*Sub]bool{}} }

// Subscribe returns a new subscription.
func (h *SafeHub) Subscribe() *Sub {
	s := &Sub{c: make(chan string, 16)}
	h.mu.Lock()
	h.subs[s] = true
	h.count++
	h.mu.Unlock()
	return s
}

// Unsubscribe ends subscription s.
func (h *SafeHub) Unsubscribe(s *Sub) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.subs[s] {
		return ErrUnknown
	}
	delete(h.subs, s)
	h.count--
	return nil
}

// Publish delivers msg to every subscription with room for it and
// returns how many subscriptions there are.
func (h *SafeHub) Publish(msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		select {
		case s.c <- msg:
		default:
		}
	}
	return h.count
}

// Settings are names with a version. UnmarshalJSON replaces them without
// the lock once the input has decoded.
type Settings struct {
	mu      sync.Mutex
	version int
	names   []string
}

type settingsJSON struct {
	Version int      `json:"version"`
	Names   []string `json:"names"`
}

// NewSettings returns settings holding names.
func NewSettings() *Settings { return &Settings{version: 1, names: []string{"a", "b"}} }

// MarshalJSON encodes the settings.
func (s *Settings) MarshalJSON() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(settingsJSON{s.version, s.names})
}

// UnmarshalJSON replaces the settings with those data encodes.
func (s *Settings) UnmarshalJSON(data []byte) error {
	var v settingsJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v.Version < 1 {
		return errors.New("feedback: no version")
	}
	s.version, s.names = v.Version+1, v.Names
	return nil
}

// Names returns how many names there are.
func (s *Settings) Names() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.names)
}

// SafeSettings is Settings with UnmarshalJSON under the lock.
type SafeSettings struct {
	mu      sync.Mutex
	version int
	names   []string
}

// NewSafeSettings returns settings holding names.
func NewSafeSettings() *SafeSettings { return &SafeSettings{version: 1, names: []string{"a", "b"}} }

// MarshalJSON encodes the settings.
func (s *SafeSettings) MarshalJSON() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(settingsJSON{s.version, s.names})
}

// UnmarshalJSON replaces the settings with those data encodes.
func (s *SafeSettings) UnmarshalJSON(data []byte) error {
	var v settingsJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v.Version < 1 {
		return errors.New("feedback: no version")
	}
	s.mu.Lock()
	s.version, s.names = v.Version+1, v.Names
	s.mu.Unlock()
	return nil
}

// Names returns how many names there are.
func (s *SafeSettings) Names() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.names)
}
