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

// DB synchronises itself.
type DB struct {
	mu   sync.Mutex
	rows map[string]string
}

// Begin returns a transaction on the database.
func (db *DB) Begin() *Txn { return &Txn{db: db, writes: map[string]string{}} }

// Txn is a transaction of its DB. It has no lock of its own; its
// database's mutex is its database's business.
type Txn struct {
	db     *DB
	writes map[string]string
}

// Set records a write.
func (t *Txn) Set(k, v string) { t.writes[k] = v }

// Commit applies the writes under the database's lock.
func (t *Txn) Commit() {
	t.db.mu.Lock()
	defer t.db.mu.Unlock()
	for k, v := range t.writes {
		t.db.rows[k] = v
	}
}

// SafeTxn is a handle too, but it is safe for concurrent use by multiple
// goroutines.
type SafeTxn struct{ db *DB }

// Get reads a row.
func (t *SafeTxn) Get(k string) string {
	t.db.mu.Lock()
	defer t.db.mu.Unlock()
	return t.db.rows[k]
}

// Session holds a *DB and a mutex of its own: not a handle.
type Session struct {
	mu sync.Mutex
	db *DB
	n  int
}

// Touch counts.
func (s *Session) Touch() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

// Queue is a ring buffer for a single producer and a single consumer:
// its indices are atomic so that the two may run at once, but two
// consumers must not.
type Queue struct {
	head, tail atomic.Uint64
	buf        [16]int
}

// Pop takes an item.
func (q *Queue) Pop() (int, bool) {
	h := q.head.Load()
	if h == q.tail.Load() {
		return 0, false
	}
	v := q.buf[h%16]
	q.head.Store(h + 1)
	return v, true
}

// Tx is a transaction of a Store, as a bolt Tx is: it holds the *Store it
// was begun from, its root Cursor by value (which points back to the Tx),
// and statistics that count atomically in their own methods. None of it
// is a synchronisation of its own: it is a handle.
type Tx struct {
	store *Store
	root  Cursor
	stats TxStats
	pages map[int][]byte
}

// Cursor walks a Tx.
type Cursor struct {
	tx    *Tx
	stack []int
}

// Next moves the cursor.
func (c *Cursor) Next() int { c.stack = append(c.stack, len(c.tx.pages)); return len(c.stack) }

// TxStats are counters that other goroutines may read while the Tx runs.
type TxStats struct{ reads int64 }

// IncReads counts a read.
func (s *TxStats) IncReads() { atomic.AddInt64(&s.reads, 1) }

// Reads returns the reads counted.
func (s *TxStats) Reads() int64 { return atomic.LoadInt64(&s.reads) }

// Get reads a page.
func (tx *Tx) Get(id int) []byte {
	tx.stats.IncReads()
	return tx.pages[id]
}

// Put writes a page.
func (tx *Tx) Put(id int, b []byte) { tx.pages[id] = b }

// Commit writes the pages to the store.
func (tx *Tx) Commit() {
	tx.store.mu.Lock()
	defer tx.store.mu.Unlock()
	for id, b := range tx.pages {
		tx.store.pages[id] = b
	}
}

// Store synchronises itself.
type Store struct {
	mu    sync.Mutex
	pages map[int][]byte
}

// Begin starts a transaction.
func (s *Store) Begin() *Tx { tx := &Tx{store: s, pages: map[int][]byte{}}; tx.root.tx = tx; return tx }

// Shard is one shard of a Pool, exported and with methods of its own.
type Shard struct {
	mu sync.Mutex
	n  int
}

// Add adds to the shard.
func (s *Shard) Add(d int) { s.mu.Lock(); s.n += d; s.mu.Unlock() }

// Pool spreads its work over shards it owns: their mutexes are its own
// synchronisation (a container of them, not a pointer to another object).
type Pool struct{ shards []*Shard }

// Add adds to a shard.
func (p *Pool) Add(i, d int) { p.shards[i%len(p.shards)].Add(d) }

// logLock serialises the output of every Logger.
var logLock sync.Mutex

// Logger writes its lines under the package's lock.
type Logger struct {
	lines  []string
	closed bool
}

// Print adds a line.
func (l *Logger) Print(s string) {
	logLock.Lock()
	defer logLock.Unlock()
	if !l.closed {
		l.lines = append(l.lines, s)
	}
}

// Close stops the logger.
func (l *Logger) Close() {
	logLock.Lock()
	defer logLock.Unlock()
	l.closed = true
}

// registryMu guards registry.
var registryMu sync.Mutex

var registry = map[string]*Entry{}

// Entry is a plain value that its Register adds to the package's
// registry under the registry's lock.
type Entry struct {
	Name string
	hits int
}

// Register adds e to the registry.
func (e *Entry) Register() {
	registryMu.Lock()
	defer registryMu.Unlock()
	registry[e.Name] = e
}

// Hit counts a hit.
func (e *Entry) Hit() { e.hits++ }
