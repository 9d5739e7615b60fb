// Types their users build with a composite literal, as the package has
// no constructor for them: a Writer field to set (&AsyncLog{Out: w}). Std
// returns a process-wide AsyncLog, which no test may share. AsyncLog
// counts its writes without its lock; SyncLog, its twin, is correct.

package objects

import (
	"io"
	"os"
	"sync"
)

// AsyncLog writes lines to Out, which must be set.
type AsyncLog struct {
	Out io.Writer
	mu  sync.Mutex
	n   int
}

var std = &AsyncLog{Out: os.Stderr}

// Std returns the log writing to standard error.
func Std() *AsyncLog { return std }

// Write writes p to Out.
func (l *AsyncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	return l.Out.Write(p)
}

// Lines returns the number of writes so far, without the lock.
func (l *AsyncLog) Lines() int { return l.n }

// SyncLog writes lines to Out, which must be set.
type SyncLog struct {
	Out io.Writer
	mu  sync.Mutex
	n   int
}

// Write writes p to Out.
func (l *SyncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	return l.Out.Write(p)
}

// Lines returns the number of writes so far.
func (l *SyncLog) Lines() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}
