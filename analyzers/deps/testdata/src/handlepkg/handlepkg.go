// Package handlepkg has a handle and no documentation of safety: the
// handle rule applies.
package handlepkg

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

// Tx is a transaction of a DB.
type Tx struct {
	db *DB
	n  int
}

// Put stores in the transaction.
func (tx *Tx) Put(k string, v int) { tx.n++; tx.db.Put(k, v) }
