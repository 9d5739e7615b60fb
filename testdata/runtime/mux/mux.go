// Package mux multiplexes messages over one connection: a Client and a
// Server speak a protocol that starts with each side's hello, which the
// other must answer within a second. depcon test must build a Session on
// a connection the package's other constructor answers (a Client for a
// Server, a Server for a Client): on one no one answers, the handshake
// fails and there is no working object. Session has a race; Channel,
// built the same way, is correct.
package mux

import (
	"errors"
	"io"
	"sync"
	"time"
)

// handshake sends hello on conn and waits for the peer's, which must be
// want.
func handshake(conn io.ReadWriteCloser, hello, want byte) error {
	go conn.Write([]byte{hello})
	got := make(chan error, 1)
	b := make([]byte, 1)
	go func() {
		_, err := io.ReadFull(conn, b)
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil || b[0] != want {
			return errors.New("mux: bad handshake")
		}
		return nil
	case <-time.After(time.Second):
		return errors.New("mux: handshake timed out")
	}
}

// writeFrame writes p, at most 255 bytes, after its length.
func writeFrame(w io.Writer, p []byte) error {
	if len(p) > 255 {
		p = p[:255]
	}
	_, err := w.Write(append([]byte{byte(len(p))}, p...))
	return err
}

// readFrames reads frames from r until it fails, calling got for each.
func readFrames(r io.Reader, got func([]byte)) {
	var n [1]byte
	for {
		if _, err := io.ReadFull(r, n[:]); err != nil {
			return
		}
		p := make([]byte, n[0])
		if _, err := io.ReadFull(r, p); err != nil {
			return
		}
		got(p)
	}
}

// Session sends messages over a connection and counts those it receives.
type Session struct {
	mu       sync.Mutex
	conn     io.ReadWriteCloser
	sent     int
	received int
}

// Client starts the client side of a session over conn.
func Client(conn io.ReadWriteCloser) (*Session, error) { return newSession(conn, 'C', 'S') }

// Server starts the server side of a session over conn.
func Server(conn io.ReadWriteCloser) (*Session, error) { return newSession(conn, 'S', 'C') }

func newSession(conn io.ReadWriteCloser, hello, want byte) (*Session, error) {
	if err := handshake(conn, hello, want); err != nil {
		return nil, err
	}
	s := &Session{conn: conn}
	go readFrames(conn, func([]byte) {
		s.mu.Lock()
		s.received++
		s.mu.Unlock()
	})
	return s, nil
}

// Send writes a message under the lock, and counts it without.
func (s *Session) Send(p []byte) error {
	s.mu.Lock()
	err := writeFrame(s.conn, p)
	s.mu.Unlock()
	s.sent++ // the race
	return err
}

// Sent returns how many messages were sent.
func (s *Session) Sent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

// Close closes the connection.
func (s *Session) Close() error { return s.conn.Close() }

// Channel is Session done right: it counts under the lock.
type Channel struct {
	mu   sync.Mutex
	conn io.ReadWriteCloser
	sent int
}

// Dial starts the client side of a channel over conn.
func Dial(conn io.ReadWriteCloser) (*Channel, error) { return newChannel(conn, 'c', 's') }

// Accept starts the server side of a channel over conn.
func Accept(conn io.ReadWriteCloser) (*Channel, error) { return newChannel(conn, 's', 'c') }

func newChannel(conn io.ReadWriteCloser, hello, want byte) (*Channel, error) {
	if err := handshake(conn, hello, want); err != nil {
		return nil, err
	}
	go readFrames(conn, func([]byte) {})
	return &Channel{conn: conn}, nil
}

// Send writes a message and counts it, under the lock.
func (c *Channel) Send(p []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent++
	return writeFrame(c.conn, p)
}

// Sent returns how many messages were sent.
func (c *Channel) Sent() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent
}

// Close closes the connection.
func (c *Channel) Close() error { return c.conn.Close() }
