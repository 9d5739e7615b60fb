// Calls that fail alone on some arguments and leave the object broken:
// Feed takes the type of the first value sent, and a nil value, which has
// no type, panics in that first Send; a Send of a typed value after it
// panics too. Used with typed values, as its documentation says, Feed is
// correct: no concurrent failure of it is its defect. Server's Attach of
// a connection that is not open and Addr before attaching both panic
// alone; Checked, its twin, returns.

package objects

import (
	"fmt"
	"net"
	"reflect"
	"sync"
)

// Feed sends values of one type, the type of the first value sent;
// nil is no value.
type Feed struct {
	once sync.Once
	mu   sync.Mutex
	typ  reflect.Type
	sent int
}

// Send sends v, which must have the feed's type.
func (f *Feed) Send(v any) int {
	f.once.Do(func() {
		f.typ = reflect.TypeOf(v)
		_ = f.typ.Kind() // a nil value has no type
	})
	if t := reflect.TypeOf(v); t != f.typ {
		panic(fmt.Sprintf("badargs: sent %v to a feed of %s", t, f.typ.String()))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent++
	return f.sent
}

// Sent returns the number of values sent.
func (f *Feed) Sent() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sent
}

// Server serves a connection. Attach of a connection that is not open
// (a nil or zero *net.TCPConn, whose RemoteAddr is nil) panics, and so
// does Addr before Attach: a race between the two is one between calls
// that fail alone, with arguments the API rules out; not reported.
type Server struct {
	mu    sync.Mutex
	c     *net.TCPConn
	name  string
	conns int
}

// SetName names the server.
func (s *Server) SetName(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.name = name
}

// Name returns the server's name.
func (s *Server) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

// Conns returns the number of connections served.
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// NewServer returns a server.
func NewServer() *Server { return &Server{} }

// Attach serves c, an open connection, and returns its peer's address.
func (s *Server) Attach(c *net.TCPConn) string {
	s.mu.Lock()
	s.c = c
	s.mu.Unlock()
	return c.RemoteAddr().String()
}

// Addr returns the address of the peer served, once attached.
func (s *Server) Addr() string { return s.c.RemoteAddr().String() }

// Checked is Server whose calls fail with an error, not a panic: its
// race is reported.
type Checked struct {
	mu sync.Mutex
	ln net.Listener
}

// NewChecked returns a server.
func NewChecked() *Checked { return &Checked{} }

// Serve serves on ln.
func (s *Checked) Serve(ln net.Listener) string {
	s.mu.Lock()
	s.ln = ln
	s.mu.Unlock()
	if ln == nil {
		return ""
	}
	return ln.Addr().String()
}

// Addr returns the address served, "" before serving.
func (s *Checked) Addr() string {
	if s.ln == nil {
		return ""
	}
	return s.ln.Addr().String()
}
