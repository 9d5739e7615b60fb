package unguarded

import "sync"

// A method that accesses a field several times without the lock that all
// the other methods hold at every access: reported once, at its first
// unguarded access.

type Journal struct {
	mu      sync.Mutex
	seq     int
	entries []string
}

// Append releases the lock before appending.
func (j *Journal) Append(s string) int {
	j.mu.Lock()
	j.seq++
	seq := j.seq
	j.mu.Unlock()
	j.entries = append(j.entries, s) // want `j.entries is written in Append without j.mu, which is held at its 4 accesses in Journal's other methods \(e.g. permethod.go:\d+:\d+ in Clear\): data race`
	return seq
}

func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.entries)
}

func (j *Journal) Last() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.entries[len(j.entries)-1]
}

func (j *Journal) Clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = nil
}

type Header struct {
	mu sync.Mutex
	m  map[string]string
}

func (h *Header) Set(k, v string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.m[k] = v
}

func (h *Header) Get(k string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.m[k]
}

// Clone ranges over the map without the lock.
func (h *Header) Clone() map[string]string {
	c := make(map[string]string, len(h.m)) // want `h.m is read in Clone without h.mu, which is held at its 4 accesses in Header's other methods`
	for k, v := range h.m {
		c[k] = v
	}
	return c
}

// Correct code: no diagnostics.

// Purse locks the two purses in id order: the receiver's lock is one of
// the two it holds, whichever comes first.
type Purse struct {
	mu      sync.Mutex
	id      int
	balance int
}

func (p *Purse) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.balance += n
}

func (p *Purse) Balance() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.balance
}

func (p *Purse) Pay(to *Purse, n int) {
	first, second := p, to
	if to.id < p.id {
		first, second = to, p
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if p.balance >= n {
		p.balance -= n
		to.balance += n
	}
}

// Stream's body synchronises its own state: Close closes it without the
// stream's lock, which guards only the stream's use of it.
type body struct {
	mu     sync.Mutex
	closed bool
}

func (b *body) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
}

func (b *body) Read() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.closed
}

type Stream struct {
	mu   sync.Mutex
	body *body
	n    int
}

func (s *Stream) Read() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return s.body.Read()
}

func (s *Stream) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n = 0
	s.body.Close()
}

func (s *Stream) Close() {
	s.body.Close()
}
