// Package global has a type whose only constructor registers it in a
// process-wide table, as constructors that register handlers on
// http.DefaultServeMux do: a second call in one process panics, so no
// test can have a fresh object. Its twin Local is built freely.
package global

import "sync"

var (
	mu         sync.Mutex
	registered = map[string]bool{}
)

func register(name string) {
	mu.Lock()
	defer mu.Unlock()
	if registered[name] {
		panic("global: multiple registrations for " + name)
	}
	registered[name] = true
}

// Server counts requests; NewServer registers it under /debug.
type Server struct {
	mu sync.Mutex
	n  int
}

// NewServer registers the server's handler, once per process.
func NewServer() *Server {
	register("/debug")
	return &Server{}
}

// Inc counts a request.
func (s *Server) Inc() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

// Count returns the requests counted.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// Local counts too, and registers nothing.
type Local struct {
	mu sync.Mutex
	n  int
}

// NewLocal returns a counter.
func NewLocal() *Local { return &Local{} }

// Inc counts.
func (l *Local) Inc() {
	l.mu.Lock()
	l.n++
	l.mu.Unlock()
}

// Count returns the count.
func (l *Local) Count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// Registry is only ever the process-wide one GetDefaultRegistry returns:
// every test would share it, so it is not tested.
type Registry struct {
	mu    sync.Mutex
	names []string
}

var defaultRegistry = &Registry{}

// GetDefaultRegistry returns the process-wide registry.
func GetDefaultRegistry() *Registry { return defaultRegistry }

// Add registers name.
func (r *Registry) Add(name string) {
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
}

// Len returns the number of names.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.names)
}
