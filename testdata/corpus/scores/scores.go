// Package scores keeps the scores of the players of a game.
package scores

import (
	"sort"
	"sync"
)

// Board holds one score per player name. Scores never go below zero. A
// Board is safe for concurrent use by multiple goroutines.
type Board struct {
	mu     sync.Mutex
	scores map[string]int
}

// NewBoard returns a board with no players.
func NewBoard() *Board {
	return &Board{scores: make(map[string]int)}
}

// Score returns the score of name, 0 for a player without one.
func (b *Board) Score(name string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.scores[name]
}

// Set sets the score of name to n, or to 0 when n is negative.
func (b *Board) Set(name string, n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.scores[name] = max(n, 0)
}

// Add adds n, which may be negative, to the score of name and returns the
// new score.
func (b *Board) Add(name string, n int) int {
	s := max(b.Score(name)+n, 0)
	b.Set(name, s)
	return s
}

// Reset removes name from the board and reports whether it was there.
func (b *Board) Reset(name string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.scores[name]
	delete(b.scores, name)
	return ok
}

// Total returns the sum of all scores.
func (b *Board) Total() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	var sum int
	for _, s := range b.scores {
		sum += s
	}
	return sum
}

// Players returns the names on the board, sorted.
func (b *Board) Players() []string {
	b.mu.Lock()
	names := make([]string, 0, len(b.scores))
	for name := range b.scores {
		names = append(names, name)
	}
	b.mu.Unlock()
	sort.Strings(names)
	return names
}
