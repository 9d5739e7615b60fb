// Package eventlog keeps an append-only, in-memory log of events.
package eventlog

import (
	"strings"
	"sync"
)

// Entry is one logged event.
type Entry struct {
	Seq int
	Msg string
}

// Log is an append-only sequence of entries. The zero value is an empty
// Log ready to use. A Log is safe for concurrent use by multiple
// goroutines.
type Log struct {
	mu      sync.Mutex
	seq     int
	entries []Entry
}

// Append adds msg to the log and returns its sequence number.
func (l *Log) Append(msg string) int {
	l.mu.Lock()
	l.seq++
	seq := l.seq
	l.mu.Unlock()
	l.entries = append(l.entries, Entry{Seq: seq, Msg: msg})
	return seq
}

// Len returns the number of entries.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}

// Entries returns a copy of all entries, oldest first.
func (l *Log) Entries() []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Entry(nil), l.entries...)
}

// Find returns the entries whose message contains substr.
func (l *Log) Find(substr string) []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Entry
	for _, e := range l.entries {
		if strings.Contains(e.Msg, substr) {
			out = append(out, e)
		}
	}
	return out
}

// Since returns the entries with a sequence number greater than seq.
func (l *Log) Since(seq int) []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Entry
	for _, e := range l.entries {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out
}

// Clear removes all entries; sequence numbers keep increasing.
func (l *Log) Clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = nil
}
