// Package indirect holds re-entries that go through a value the
// summaries do not follow on their own: an interface value that a
// constructor stored in a field of the object, holding a small adapter
// type that wraps the object (wrapped.go), and sync.Once bodies run by a
// helper or made by sync.OnceValue (once.go). A method that holds the
// object's lock calls through it, and the target locks it again. Each is
// next to correct variants.
package indirect

import "sync"

// Handler receives a server's events.
type Handler interface{ Handle(ev string) }

// recorder hands the events back to the server that made it.
type recorder struct{ s *Server }

func (r recorder) Handle(ev string) { r.s.record(ev) }

type Server struct {
	mu      sync.Mutex
	events  []string
	handler Handler
}

func NewServer() *Server {
	s := &Server{}
	s.handler = recorder{s}
	return s
}

func (s *Server) record(ev string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, ev)
}

// Dispatch holds s.mu while the handler runs: recorder.Handle locks s.mu
// again, and Dispatch never returns.
func (s *Server) Dispatch(ev string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.events) > 100 {
		s.events = s.events[1:]
	}
	s.handler.Handle(ev) // want `s.mu is locked \(in record, called through an interface\) while already held \(locked at wrapped.go:41:11\)`
}

// DispatchOK calls the handler after unlocking.
func (s *Server) DispatchOK(ev string) {
	s.mu.Lock()
	if len(s.events) > 100 {
		s.events = s.events[1:]
	}
	s.mu.Unlock()
	s.handler.Handle(ev)
}

// The same with a pointer to the adapter.
type Notifier interface{ Notify() }

type pool struct{ p *Pool }

func (a *pool) Notify() { a.p.wake() }

type Pool struct {
	mu     sync.Mutex
	idle   int
	notify Notifier
}

func NewPool() *Pool {
	p := &Pool{}
	p.notify = &pool{p: p}
	return p
}

func (p *Pool) wake() {
	p.mu.Lock()
	p.idle++
	p.mu.Unlock()
}

func (p *Pool) Put() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle--
	p.notify.Notify() // want `p.mu is locked \(in wake, called through an interface\) while already held`
}

// A relay's handler forwards to another relay: the lock it takes is the
// next relay's, not the one held.
type forward struct{ next *Relay }

func (f forward) Handle(ev string) { f.next.record(ev) }

type Relay struct {
	mu      sync.Mutex
	events  []string
	handler Handler
}

func NewRelay(next *Relay) *Relay {
	r := &Relay{}
	r.handler = forward{next}
	return r
}

func (r *Relay) record(ev string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *Relay) Dispatch(ev string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	r.handler.Handle(ev)
}

// A hub whose handler wraps itself in one constructor and another hub in
// the other: which hub the handler locks is not known.
type hubHandler struct{ h *Hub }

func (x hubHandler) Handle(ev string) { x.h.record(ev) }

type Hub struct {
	mu      sync.Mutex
	events  []string
	handler Handler
}

func NewHub() *Hub {
	h := &Hub{}
	h.handler = hubHandler{h}
	return h
}

func NewHubFor(parent *Hub) *Hub {
	h := &Hub{}
	h.handler = hubHandler{parent}
	return h
}

func (h *Hub) record(ev string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, ev)
}

func (h *Hub) Dispatch(ev string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, ev)
	h.handler.Handle(ev)
}
