// Package serial hands out serial numbers from 1 up to a limit, starting
// over at 1 after the limit.
package serial

import (
	"math"
	"sync/atomic"
)

// Generator issues serial numbers in 1..Limit(). A Generator is safe for
// concurrent use by multiple goroutines.
type Generator struct {
	limit  int64
	last   atomic.Int64
	issued atomic.Int64
}

// NewGenerator returns a generator whose numbers go up to limit; a limit
// of 0 or less means no limit.
func NewGenerator(limit int) *Generator {
	g := &Generator{limit: int64(limit)}
	if limit <= 0 {
		g.limit = math.MaxInt64
	}
	return g
}

// Next returns the next serial number: one more than the last, or 1
// after the limit.
func (g *Generator) Next() int {
	n := g.last.Load()
	if n >= g.limit {
		n = 0
	}
	n++
	g.last.Store(n)
	g.issued.Add(1)
	return int(n)
}

// Last returns the last number issued, 0 before the first.
func (g *Generator) Last() int { return int(g.last.Load()) }

// Issued returns how many numbers have been issued in all.
func (g *Generator) Issued() int { return int(g.issued.Load()) }

// Limit returns the largest number the generator issues.
func (g *Generator) Limit() int { return int(g.limit) }

// Reset makes the next number 1 again. The count of issued numbers is
// kept.
func (g *Generator) Reset() { g.last.Store(0) }
