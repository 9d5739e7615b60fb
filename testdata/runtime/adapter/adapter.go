// Package adapter has a router whose handlers are an interface with a
// function adapter, as http.Handler has http.HandlerFunc: the race of
// Dispatch lies behind a registered route, which only a non-nil Handler
// makes.
package adapter

import (
	"errors"
	"sync"
)

// ErrNoRoute is returned by Dispatch for a topic without a handler.
var ErrNoRoute = errors.New("adapter: no route")

// A Handler handles the messages of a topic.
type Handler interface {
	Handle(msg string) error
}

// HandlerFunc lets an ordinary function be a Handler.
type HandlerFunc func(msg string) error

// Handle calls f(msg).
func (f HandlerFunc) Handle(msg string) error { return f(msg) }

// Router dispatches messages to the handlers of their topics. It is safe
// for concurrent use.
type Router struct {
	mu     sync.Mutex
	routes map[string]Handler
	served int
}

// NewRouter returns a router without routes.
func NewRouter() *Router { return &Router{routes: map[string]Handler{}} }

// Route makes h handle the messages of topic; a nil h is ignored.
func (r *Router) Route(topic string, h Handler) {
	if h == nil {
		return
	}
	r.mu.Lock()
	r.routes[topic] = h
	r.mu.Unlock()
}

// Dispatch hands msg to the handler of topic.
func (r *Router) Dispatch(topic, msg string) error {
	r.mu.Lock()
	h := r.routes[topic]
	r.mu.Unlock()
	if h == nil {
		return ErrNoRoute
	}
	r.served++ // outside the lock
	return h.Handle(msg)
}

// Served returns how many messages were handled.
func (r *Router) Served() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.served
}

// SafeRouter is Router with the count under the lock.
type SafeRouter struct {
	mu     sync.Mutex
	routes map[string]Handler
	served int
}

// NewSafeRouter returns a router without routes.
func NewSafeRouter() *SafeRouter { return &SafeRouter{routes: map[string]Handler{}} }

// Route makes h handle the messages of topic; a nil h is ignored.
func (r *SafeRouter) Route(topic string, h Handler) {
	if h == nil {
		return
	}
	r.mu.Lock()
	r.routes[topic] = h
	r.mu.Unlock()
}

// Dispatch hands msg to the handler of topic.
func (r *SafeRouter) Dispatch(topic, msg string) error {
	r.mu.Lock()
	h := r.routes[topic]
	if h != nil {
		r.served++
	}
	r.mu.Unlock()
	if h == nil {
		return ErrNoRoute
	}
	return h.Handle(msg)
}

// Served returns how many messages were handled.
func (r *SafeRouter) Served() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.served
}
