package unguarded

import "sync"

// A test hook (export_test.go): only tests call it, from one goroutine.
func (l *Log) SetEvents(e []string) { l.events = e }

// Code under test written in a test file is reported as any other.
type Probe struct {
	mu   sync.Mutex
	hits int
}

func (p *Probe) Hit() {
	p.mu.Lock()
	p.hits++
	p.mu.Unlock()
}

func (p *Probe) Hits() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hits
}

func (p *Probe) Reset() {
	p.hits = 0 // want `p.hits is written in Reset without p.mu`
}
