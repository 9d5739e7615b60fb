// plan: Atomic: |M|=3 pc=0 d=0; Callbacks: |M|=3 pc=0 d=0; Locked: |M|=3 pc=0 d=0; Racy: |M|=3 pc=2 d=0

// Package writewrite holds methods that only write shared state: in Go two
// unsynchronised writes race (and two map writes are fatal), so they are
// dependent, unless something orders them.
package writewrite

import (
	"sync"
	"sync/atomic"
)

// Racy writes its map and counter without a lock.
type Racy struct {
	m map[string]int
	n int
}

// Set writes an element of the map: concurrent map writes are fatal.
func (r *Racy) Set(k string) { r.m[k] = 1 }

// Reset writes the counter.
func (r *Racy) Reset() { r.n = 0 }

// Locked is the negative twin of Racy: every write holds the mutex.
type Locked struct {
	mu sync.Mutex
	m  map[string]int
	n  int
}

// Set writes an element of the map under the lock.
func (l *Locked) Set(k string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.m[k] = 1
}

// Reset writes the counter under the lock.
func (l *Locked) Reset() {
	l.mu.Lock()
	l.n = 0
	l.mu.Unlock()
}

// Atomic writes with single atomic operations, which do not race.
type Atomic struct{ n atomic.Int64 }

// Add adds one.
func (a *Atomic) Add() { a.n.Add(1) }

// Store resets the value.
func (a *Atomic) Store() { a.n.Store(0) }

// Hooks are set by the package's user before any Callbacks is shared.
var (
	HookF func(*Callbacks)
	HookG func(*Callbacks)
)

// Callbacks hands its receiver to unknown code: each call only may write
// it, so two such calls are no evidence of a conflict.
type Callbacks struct{ n int }

// CallF calls HookF with the receiver.
func (c *Callbacks) CallF() { HookF(c) }

// CallG calls HookG with the receiver.
func (c *Callbacks) CallG() { HookG(c) }
