// Package stemmer reduces English words to a crude stem and remembers the
// results.
package stemmer

import (
	"strings"
	"sync"
)

var suffixes = []string{"ational", "ingly", "ness", "ment", "ing", "ies", "ed", "ly", "es", "s"}

// Stemmer strips common suffixes from words, caching each result. A
// Stemmer is safe for concurrent use by multiple goroutines.
type Stemmer struct {
	minLen int

	mu    sync.Mutex
	cache map[string]string
	hits  int
}

// NewStemmer returns a Stemmer that never shortens a word below minLen
// letters.
func NewStemmer(minLen int) *Stemmer {
	if minLen < 1 {
		minLen = 1
	}
	return &Stemmer{minLen: minLen, cache: make(map[string]string)}
}

func (s *Stemmer) lookup(word string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stem, ok := s.cache[word]
	if ok {
		s.hits++
	}
	return stem, ok
}

// Stem returns the stem of word.
func (s *Stemmer) Stem(word string) string {
	word = strings.ToLower(word)
	if stem, ok := s.lookup(word); ok {
		return stem
	}
	stem := word
	for _, suf := range suffixes {
		if strings.HasSuffix(word, suf) && len(word)-len(suf) >= s.minLen {
			stem = strings.TrimSuffix(word, suf)
			break
		}
	}
	s.cache[word] = stem
	return stem
}

// Cached reports whether the stem of word has been computed.
func (s *Stemmer) Cached(word string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.cache[strings.ToLower(word)]
	return ok
}

// Len returns the number of cached words.
func (s *Stemmer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cache)
}

// Hits returns how many calls were answered from the cache.
func (s *Stemmer) Hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

// Reset forgets all cached stems.
func (s *Stemmer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cache = make(map[string]string)
	s.hits = 0
}
