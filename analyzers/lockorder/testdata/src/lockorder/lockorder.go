// want package:"lockorder.Log.mu -> lockorder.Store.mu; lockorder.Pair.a -> lockorder.Pair.b; lockorder.Store.mu -> lockorder.Log.mu"

package lockorder

import "sync"

type Store struct {
	mu  sync.Mutex
	log *Log
	m   map[string]int
}

type Log struct {
	mu    sync.Mutex
	store *Store
	lines []string
}

func (l *Log) Append(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, s)
}

func (s *Store) Sync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m = map[string]int{}
}

func (s *Store) Put(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k]++
	s.log.Append(k)
}

func (l *Log) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.store.Sync() // want `lock order inversion: Flush locks l.store.mu \(in Sync\) while holding l.mu, but Put \(at lockorder.go:35:14\) locks them in the opposite order`
}

type Account struct {
	mu      sync.Mutex
	balance int
}

func (a *Account) Transfer(to *Account, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	to.mu.Lock() // want `Transfer locks to.mu while holding a.mu, in the order of its arguments`
	defer to.mu.Unlock()
	a.balance -= n
	to.balance += n
}

// Correct: ordered by address identity.
func Move(a, b *Account, less bool, n int) {
	if less {
		a.mu.Lock()
		b.mu.Lock()
	} else {
		b.mu.Lock()
		a.mu.Lock()
	}
	a.balance -= n
	b.balance += n
	a.mu.Unlock()
	b.mu.Unlock()
}

// Correct: other's state is copied under its own lock alone.
func (a *Account) Equal(o *Account) bool {
	o.mu.Lock()
	ob := o.balance
	o.mu.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance == ob
}

type Pair struct {
	a, b sync.Mutex
	n    int
}

// Correct: always a then b.
func (p *Pair) One() {
	p.a.Lock()
	p.b.Lock()
	p.n++
	p.b.Unlock()
	p.a.Unlock()
}

func (p *Pair) Two() {
	p.a.Lock()
	defer p.a.Unlock()
	p.b.Lock()
	defer p.b.Unlock()
	p.n--
}

// Correct: a helper taking two mutexes says nothing about their order.
func Both(a, b *sync.Mutex) {
	a.Lock()
	b.Lock()
	b.Unlock()
	a.Unlock()
}

type Index struct {
	mu sync.RWMutex
	m  map[string]int
}

// Correct: read locks in argument order do not exclude each other.
func (x *Index) Same(o *Index) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	o.mu.RLock()
	defer o.mu.RUnlock()
	return len(x.m) == len(o.m)
}
