package unguarded

import (
	"sync"
	"sync/atomic"
)

// FileNums mixes an atomic write and a plain read of next: reported once,
// for FileNums, not again for every type of the package that embeds it
// (the promoted methods of testingNums run the same code).
type FileNums struct {
	mu   sync.Mutex
	next int64
}

func (s *FileNums) Alloc() int64 { return atomic.AddInt64(&s.next, 1) }

func (s *FileNums) Reuse(n int64) bool {
	return s.next == n+1 // want `s.next is read in Reuse without sync/atomic, but written atomically in Alloc`
}

type testingNums struct {
	*FileNums
	label string
}
