// A queue stored in a directory that must exist (Open(name, dirPath)
// fails otherwise). Queue counts its items without its lock; SafeQueue,
// its twin, is correct.

package objects

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// Queue keeps its items in a file of directory dir.
type Queue struct {
	mu   sync.Mutex
	path string
	n    int
}

// Open opens the queue name in the existing directory dirPath.
func Open(name, dirPath string) (*Queue, error) {
	st, err := os.Stat(dirPath)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, errors.New("not a directory")
	}
	return &Queue{path: filepath.Join(dirPath, name)}, nil
}

// Push counts an item.
func (q *Queue) Push(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.n++
}

// Len returns the number of items, without the lock.
func (q *Queue) Len() int { return q.n }

// SafeQueue is Queue with a locked Len.
type SafeQueue struct {
	mu   sync.Mutex
	path string
	n    int
}

// OpenSafe opens the queue name in the existing directory dirPath.
func OpenSafe(name, dirPath string) (*SafeQueue, error) {
	if _, err := os.Stat(dirPath); err != nil {
		return nil, err
	}
	return &SafeQueue{path: filepath.Join(dirPath, name)}, nil
}

// Push counts an item.
func (q *SafeQueue) Push(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.n++
}

// Len returns the number of items.
func (q *SafeQueue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}
