// Package config holds string-valued configuration settings.
package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Config is a set of named settings seeded with defaults. A Config is safe
// for concurrent use by multiple goroutines.
type Config struct {
	mu      sync.RWMutex
	values  map[string]string
	version int
}

// NewConfig returns a Config for the application name with default
// settings.
func NewConfig(name string) *Config {
	return &Config{values: map[string]string{
		"name":    name,
		"retries": "3",
		"timeout": "30s",
	}}
}

// Get returns the value of key.
func (c *Config) Get(key string) (string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.values[key]
	return v, ok
}

// Int returns the value of key as an integer, or def if it is missing or
// not a number.
func (c *Config) Int(key string, def int) int {
	v, ok := c.Get(key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return def
	}
	return n
}

// Set stores value under key.
func (c *Config) Set(key, value string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.values[key] = value
	c.version++
}

// Delete removes key.
func (c *Config) Delete(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.values, key)
	c.version++
}

// Version returns the number of changes made since creation.
func (c *Config) Version() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.version
}

// Dump renders all settings as sorted key=value lines.
func (c *Config) Dump() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	keys := make([]string, 0, len(c.values))
	for k := range c.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for _, k := range keys {
		v, _ := c.Get(k)
		fmt.Fprintf(&sb, "%s=%s\n", k, v)
	}
	return sb.String()
}
