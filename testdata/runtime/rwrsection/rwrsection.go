// Package rwrsection has a read-write-read deadlock whose reader takes an
// unrelated read section first: Describe reads its statistics under
// statsMu, then holds mu's read lock and calls get, which read-locks mu
// again. A Set whose Lock comes between the two read locks of mu waits
// for Describe, and the nested RLock waits for the Set.
package rwrsection

import (
	"fmt"
	"sync"
)

// Config holds settings.
type Config struct {
	statsMu sync.RWMutex
	reads   int
	mu      sync.RWMutex
	m       map[string]string
}

// NewConfig returns an empty configuration.
func NewConfig() *Config { return &Config{m: map[string]string{}} }

// Describe describes the configuration.
func (c *Config) Describe() string {
	c.statsMu.RLock()
	n := c.reads
	c.statsMu.RUnlock()
	c.mu.RLock()
	defer c.mu.RUnlock()
	return fmt.Sprintf("%d reads, a=%s", n, c.get("a"))
}

func (c *Config) get(k string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[k]
}

// Set sets k to v.
func (c *Config) Set(k, v string) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

// SafeConfig is Config whose Describe reads the key through a helper
// that expects the read lock held: mu is read-locked once.
type SafeConfig struct {
	statsMu sync.RWMutex
	reads   int
	mu      sync.RWMutex
	m       map[string]string
}

// NewSafeConfig returns an empty configuration.
func NewSafeConfig() *SafeConfig { return &SafeConfig{m: map[string]string{}} }

// Describe describes the configuration.
func (c *SafeConfig) Describe() string {
	c.statsMu.RLock()
	n := c.reads
	c.statsMu.RUnlock()
	c.mu.RLock()
	defer c.mu.RUnlock()
	return fmt.Sprintf("%d reads, a=%s", n, c.getLocked("a"))
}

// getLocked returns k's value; c.mu must be held.
func (c *SafeConfig) getLocked(k string) string { return c.m[k] }

// Set sets k to v.
func (c *SafeConfig) Set(k, v string) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}
