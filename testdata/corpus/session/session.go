// Package session stores the attributes of a user session with an expiry
// time.
package session

import (
	"sort"
	"sync"
	"time"
)

// Session is a user session holding string attributes. Callers that need
// several operations to appear atomic may hold the embedded lock. A Session
// is safe for concurrent use by multiple goroutines.
type Session struct {
	sync.Mutex
	id      string
	values  map[string]string
	expires time.Time
}

// NewSession returns a Session called id that expires after ttl.
func NewSession(id string, ttl time.Duration) *Session {
	return &Session{id: id, values: make(map[string]string), expires: time.Now().Add(ttl)}
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Get returns the attribute key.
func (s *Session) Get(key string) (string, bool) {
	s.Lock()
	defer s.Unlock()
	v, ok := s.values[key]
	return v, ok
}

// Set stores an attribute.
func (s *Session) Set(key, value string) {
	s.Lock()
	defer s.Unlock()
	s.values[key] = value
}

// Keys returns the attribute names, sorted.
func (s *Session) Keys() []string {
	s.Lock()
	defer s.Unlock()
	keys := make([]string, 0, len(s.values))
	for k := range s.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Expired reports whether the session has expired.
func (s *Session) Expired() bool {
	s.Lock()
	defer s.Unlock()
	return !time.Now().Before(s.expires)
}

// Extend pushes the expiry time back by d.
func (s *Session) Extend(d time.Duration) {
	s.expires = s.expires.Add(d)
}
