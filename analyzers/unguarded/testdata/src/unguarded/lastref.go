package unguarded

import (
	"sync"
	"sync/atomic"
)

// A Log is pooled: its last reference, dropped by Finish, resets it for
// reuse. No other goroutine holds it then, so reset's plain writes race
// with nothing.
type Log struct {
	mu     sync.Mutex
	events []string
	lost   int
	refs   int32
}

var freeLogs = make(chan *Log, 16)

func (l *Log) Printf(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.events) > 100 {
		l.lost++
		return
	}
	l.events = append(l.events, s)
}

func (l *Log) Ref() { atomic.AddInt32(&l.refs, 1) }

func (l *Log) Finish() {
	if atomic.AddInt32(&l.refs, -1) == 0 {
		l.reset()
		select {
		case freeLogs <- l:
		default:
		}
	}
}

func (l *Log) reset() {
	l.events = nil
	l.lost = 0
	l.refs = 0
}

// A Trace resets itself without dropping its last reference: the same
// writes race with Printf's.
type Trace struct {
	mu     sync.Mutex
	events []string
	refs   int32
}

func (t *Trace) Printf(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = append(t.events, s)
}

func (t *Trace) Ref() { atomic.AddInt32(&t.refs, 1) }

func (t *Trace) Finish() {
	atomic.AddInt32(&t.refs, -1)
	t.reset() // want `t.events is written \(in reset\) in Finish without t.mu` `t.refs is written \(in reset\) in Finish without sync/atomic, but written atomically in Ref`
}

func (t *Trace) reset() {
	t.events = nil
	t.refs = 0
}
