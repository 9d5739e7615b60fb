// Package rwconfig has a configuration whose Describe read-locks its
// RWMutex again, through Get, while it holds it: a Set waiting for the
// write lock in between blocks the second RLock, and both wait forever.
package rwconfig

import (
	"sort"
	"strings"
	"sync"
)

// Config is a set of settings, safe for concurrent use.
type Config struct {
	mu sync.RWMutex
	kv map[string]string
}

// New returns an empty Config.
func New() *Config { return &Config{kv: map[string]string{}} }

// Get returns the value of key k.
func (c *Config) Get(k string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.kv[k]
}

// Set sets key k.
func (c *Config) Set(k, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kv[k] = v
}

// Describe returns the settings as "k=v" lines. BUG: it calls Get, which
// read-locks c.mu again, while it holds the read lock.
func (c *Config) Describe() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	keys := make([]string, 0, len(c.kv))
	for k := range c.kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("config:\n")
	for _, k := range keys {
		b.WriteString(k + "=" + c.Get(k) + "\n")
	}
	return b.String()
}
