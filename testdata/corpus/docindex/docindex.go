// Package docindex provides full-text word search over a set of short
// documents.
package docindex

import (
	"strings"
	"sync"
)

// Index stores documents and answers which documents contain a word. An
// Index is safe for concurrent use by multiple goroutines.
type Index struct {
	mu   sync.Mutex
	docs []string

	words   map[string][]int
	indexed int
}

// NewIndex returns an empty Index.
func NewIndex() *Index { return &Index{} }

// Add stores doc and returns its id.
func (x *Index) Add(doc string) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.docs = append(x.docs, doc)
	return len(x.docs) - 1
}

// Doc returns the document with the given id.
func (x *Index) Doc(id int) (string, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if id < 0 || id >= len(x.docs) {
		return "", false
	}
	return x.docs[id], true
}

// Len returns the number of documents.
func (x *Index) Len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.docs)
}

func (x *Index) refresh() map[string][]int {
	x.mu.Lock()
	docs := x.docs
	x.mu.Unlock()
	if x.words == nil || x.indexed != len(docs) {
		words := make(map[string][]int)
		for id, d := range docs {
			for _, w := range strings.Fields(strings.ToLower(d)) {
				if ids := words[w]; len(ids) == 0 || ids[len(ids)-1] != id {
					words[w] = append(ids, id)
				}
			}
		}
		x.words, x.indexed = words, len(docs)
	}
	return x.words
}

// Search returns the ids of the documents containing word, in ascending
// order.
func (x *Index) Search(word string) []int {
	words := x.refresh()
	return append([]int(nil), words[strings.ToLower(word)]...)
}

// Vocabulary returns the number of distinct words over all documents.
func (x *Index) Vocabulary() int {
	return len(x.refresh())
}
