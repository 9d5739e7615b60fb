package unguarded

import "sync"

// Messages name the receiver as the method declares it: l in Level's
// methods.
type Level struct {
	mu sync.Mutex
	n  int
}

func (l *Level) Raise() {
	l.mu.Lock()
	l.n++
	l.mu.Unlock()
}

func (l *Level) Lower() {
	l.mu.Lock()
	l.n--
	l.mu.Unlock()
}

func (l *Level) Get() int { return l.n } // want `l.n is read in Get without l.mu, which is held at its \d+ other accesses in Level's methods`

// A message about two methods that name their receiver differently (Peek
// calls it x, the others s) names it as the type's methods mostly do.
type Score struct {
	mu sync.Mutex
	v  int
}

func (s *Score) Set(v int) {
	s.mu.Lock()
	s.v = v
	s.mu.Unlock()
}

func (s *Score) Add(d int) {
	s.mu.Lock()
	s.v += d
	s.mu.Unlock()
}

func (x *Score) Peek() int { return x.v } // want `s.v is read in Peek without s.mu, which is held at its \d+ other accesses in Score's methods \(e.g. recvnames.go:\d+:\d+ in (Set|Add)\)`
