package unguarded

import "sync"

// A lock named for a purpose, declared above the fields named for it,
// guards those: the type's other fields are its goroutine's, even where
// they are used under the lock (Add holds pathMu for its whole body).

type IDManager struct {
	queue     []int
	pathMu    sync.Mutex
	pathProbe map[int]int // the IDs handed to probing paths

	seq  int
	rand int
}

func NewIDManager() *IDManager { return &IDManager{pathProbe: map[int]int{}} }

func (m *IDManager) Add(id int) {
	m.pathMu.Lock()
	defer m.pathMu.Unlock()
	m.queue = append(m.queue, id)
	m.seq++
	m.rand++
}

func (m *IDManager) ForPath(p int) int {
	m.pathMu.Lock()
	defer m.pathMu.Unlock()
	m.seq++
	m.rand++
	m.pathProbe[p] = m.seq
	return m.seq
}

// Next runs on the connection's goroutine: seq and rand are not pathMu's.
func (m *IDManager) Next() int {
	m.seq++
	m.rand++
	return m.seq
}

func (m *IDManager) Retire(p int) {
	m.pathMu.Lock()
	delete(m.pathProbe, p)
	m.pathMu.Unlock()
}

func (m *IDManager) Forget(p int) {
	delete(m.pathProbe, p) // want `m.pathProbe is written in Forget without m.pathMu`
}

// A lock named for a purpose that no field of its group bears guards
// them all.

type Usage struct {
	statsMu sync.Mutex
	count   int

	total int
}

func (m *Usage) Add(n int) {
	m.statsMu.Lock()
	m.count += n
	m.total += n
	m.statsMu.Unlock()
}

func (m *Usage) Sub(n int) {
	m.statsMu.Lock()
	m.total -= n
	m.statsMu.Unlock()
}

func (m *Usage) Reset() {
	m.total = 0 // want `m.total is written in Reset without m.statsMu`
}

// A field whose comment names the lock is guarded by it wherever it is
// declared.

type Router struct {
	routeMu sync.Mutex
	routes  map[string]int

	hits int // guarded by routeMu
}

func (r *Router) Route(k string) int {
	r.routeMu.Lock()
	defer r.routeMu.Unlock()
	r.hits++
	return r.routes[k]
}

func (r *Router) Set(k string, v int) {
	r.routeMu.Lock()
	r.hits++
	r.routes[k] = v
	r.routeMu.Unlock()
}

func (r *Router) Reset() {
	r.hits = 0 // want `r.hits is written in Reset without r.routeMu`
}
