// want package:".*"

// Package selection holds the types depcon test selects by default (the
// plan's Concurrent) and some it does not.
package selection

import (
	"log"
	"sync"
	"sync/atomic"
)

// Direct holds a mutex.
type Direct struct {
	mu sync.Mutex
	n  int
}

// Get returns n.
func (d *Direct) Get() int { d.mu.Lock(); defer d.mu.Unlock(); return d.n }

type inner struct {
	mu sync.RWMutex
	n  int
}

// Outer holds its mutex through an embedded pointer.
type Outer struct{ *inner }

// Get returns n.
func (o *Outer) Get() int { return o.n }

type shard struct {
	sync.RWMutex
	items map[string]int
}

// Sharded is a sharded map: the mutexes are in the shards.
type Sharded struct{ shards []*shard }

// Len returns the number of shards.
func (s *Sharded) Len() int { return len(s.shards) }

// ByKey holds its shards in a map.
type ByKey struct{ m map[string]*shard }

// Len returns the number of shards.
func (b *ByKey) Len() int { return len(b.m) }

type shards struct{ cs []*shard }

// Wrapped holds a sharded map through an embedded pointer, as
// go-cache's unexportedShardedCache does.
type Wrapped struct{ *shards }

// Len returns the number of shards.
func (w *Wrapped) Len() int { return len(w.cs) }

// Counter counts with sync/atomic functions on a plain field.
type Counter struct{ n int64 }

// Add adds one.
func (c *Counter) Add() { atomic.AddInt64(&c.n, 1) }

// Registry has no synchronisation of its own, but its doc says that it is
// Safe for
// concurrent use by multiple goroutines.
type Registry struct{ names []string }

// Names returns the names.
func (r *Registry) Names() []string { return r.names }

// Config is immutable once built.
type Config struct{ name string }

// Name returns the name.
func (c *Config) Name() string { return c.name }

// Buffer is not safe for concurrent use.
type Buffer struct{ b []byte }

// Len returns the length.
func (b *Buffer) Len() int { return len(b.b) }

// Simple implements a non-thread safe cache.
type Simple struct{ m map[string]int }

// Len returns the size.
func (s *Simple) Len() int { return len(s.m) }

// Noisy holds a logger, whose mutex is the log package's business.
type Noisy struct{ l *log.Logger }

// Log logs.
func (n *Noisy) Log() { n.l.Print("x") }

// Plain has no synchronisation.
type Plain struct{ n int }

// Get returns n.
func (p *Plain) Get() int { return p.n }
