// Package batcher groups small records into batches.
package batcher

import (
	"encoding/json"
	"hash/crc32"
	"sync"
	"time"
)

// Batcher collects records as time-stamped, checksummed lines until a
// batch is due. A Batcher is
// safe for concurrent use by multiple goroutines.
type Batcher struct {
	mu      sync.Mutex
	limit   int
	pending []Record
	adds    int
	due     int
}

// A Record is one added record: a JSON line holding the time it was added
// and the data (base64), and the CRC-32 (IEEE) checksum of the line.
type Record struct {
	Line []byte
	Sum  uint32
}

// NewBatcher returns a Batcher whose batches are due at limit records (at
// least 1).
func NewBatcher(limit int) *Batcher {
	b := new(Batcher)
	b.SetLimit(limit)
	b.pending = make([]Record, 0, b.Limit())
	return b
}

// Add queues rec, stamped with the current time, and reports whether a
// batch is due.
func (b *Batcher) Add(rec []byte) bool {
	line, err := json.Marshal(entry{time.Now().UTC(), rec})
	if err != nil {
		panic(err) // a time and a byte slice always encode
	}
	n := b.push(Record{line, crc32.ChecksumIEEE(line)})
	due := n >= b.limit
	b.count(due)
	return due
}

// Flush takes the pending records as one batch.
func (b *Batcher) Flush() []Record {
	b.mu.Lock()
	defer b.mu.Unlock()
	batch := b.pending
	b.pending = make([]Record, 0, b.limit)
	return batch
}

// Pending returns the number of records waiting for the next Flush.
func (b *Batcher) Pending() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.pending)
}

// SetLimit changes the number of records at which a batch is due (at
// least 1).
func (b *Batcher) SetLimit(limit int) {
	if limit < 1 {
		limit = 1
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.limit = limit
}

// Limit returns the number of records at which a batch is due.
func (b *Batcher) Limit() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.limit
}

// Stats returns the number of records added and how many of the Adds
// found a batch due.
func (b *Batcher) Stats() (adds, due int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.adds, b.due
}

type entry struct {
	Time time.Time `json:"time"`
	Data []byte    `json:"data"`
}

// push appends a record and returns the number pending.
func (b *Batcher) push(r Record) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending = append(b.pending, r)
	return len(b.pending)
}

// count records the outcome of one Add.
func (b *Batcher) count(due bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.adds++
	if due {
		b.due++
	}
}
