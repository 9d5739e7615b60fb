// Package safepkg provides a thread-safe store: its handles may be
// shared between goroutines.
package safepkg

import "sync"

// DB holds the data.
type DB struct {
	mu sync.Mutex
	m  map[string]int
}

// Put stores v under k.
func (db *DB) Put(k string, v int) {
	db.mu.Lock()
	db.m[k] = v
	db.mu.Unlock()
}

// Handle is a view of a DB. It must not be copied. Thread-safe.
type Handle struct {
	db *DB
	n  int
}

// Put stores through the view.
func (h *Handle) Put(k string, v int) { h.db.Put(k, v) }

// Cursor is a view of a DB, without documentation of its own: the
// package's says its handles are safe.
type Cursor struct {
	db  *DB
	pos int
}

// Put stores through the cursor.
func (c *Cursor) Put(k string, v int) { c.db.Put(k, v) }
