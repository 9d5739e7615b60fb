// Package wholeprog has a dynamic call that only a call graph resolves:
// Flush hands the items to a Sink, whose only implementation discards them.
package wholeprog

import "sync"

type Sink interface{ Write(p []int) }

type discard struct{}

func (discard) Write([]int) {}

type Buffer struct {
	mu    sync.Mutex
	items []int
	out   Sink
}

func NewBuffer() *Buffer { return &Buffer{out: discard{}} }

func (b *Buffer) Add(x int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.items = append(b.items, x)
}

// Flush passes the items to the sink: unknown code may write them.
func (b *Buffer) Flush() {
	b.mu.Lock()
	items := b.items
	b.mu.Unlock()
	b.out.Write(items)
}

// Sum reads the items without the lock.
func (b *Buffer) Sum() int {
	s := 0
	for _, x := range b.items {
		s += x
	}
	return s
}
