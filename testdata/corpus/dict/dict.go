// Package dict provides a set of known words loaded on first use from a
// word list.
package dict

import (
	"sort"
	"strings"
	"sync"
)

// Dict answers whether words are known. The word list given to NewDict is
// parsed on first use. A Dict is safe for concurrent use by multiple
// goroutines.
type Dict struct {
	source string

	mu     sync.Mutex
	loaded bool
	words  map[string]bool
}

// NewDict returns a Dict for the whitespace-separated words in wordlist.
func NewDict(wordlist string) *Dict {
	return &Dict{source: wordlist}
}

func (d *Dict) load() {
	if d.loaded {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.loaded {
		return
	}
	d.words = make(map[string]bool)
	for _, w := range strings.Fields(strings.ToLower(d.source)) {
		d.words[w] = true
	}
	d.loaded = true
}

// Contains reports whether word is known, ignoring case.
func (d *Dict) Contains(word string) bool {
	d.load()
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.words[strings.ToLower(word)]
}

// Add makes word known and reports whether it was new.
func (d *Dict) Add(word string) bool {
	word = strings.ToLower(strings.TrimSpace(word))
	if word == "" {
		return false
	}
	d.load()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.words[word] {
		return false
	}
	d.words[word] = true
	return true
}

// Remove forgets word.
func (d *Dict) Remove(word string) {
	d.load()
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.words, strings.ToLower(word))
}

// Len returns the number of known words.
func (d *Dict) Len() int {
	d.load()
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.words)
}

// WithPrefix returns the known words starting with prefix, sorted.
func (d *Dict) WithPrefix(prefix string) []string {
	d.load()
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for w := range d.words {
		if strings.HasPrefix(w, prefix) {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}
