package harness

import (
	"fmt"
	"net"
	"reflect"
	"time"
)

// connType is the type of a KConn value: a parameter of a type it is
// assignable to gets one end of a connection.
var connType = reflect.TypeOf((*net.Conn)(nil)).Elem()

// newConn returns one end of a new connection (KConn) for a parameter of
// type t. The other end goes to the peer v.Call builds in a goroutine of
// its own, whose KPeer argument it is, or to a goroutine that reads and
// discards. Both ends are recorded, to be closed with the iteration's
// objects (closeConns).
func (r *Registry) newConn(v Value, t reflect.Type, sc *scope) (reflect.Value, error) {
	if !connType.AssignableTo(t) {
		return reflect.Value{}, fmt.Errorf("connection value for parameter of type %s", t)
	}
	end, other := net.Pipe()
	r.connsMu.Lock()
	r.conns = append(r.conns, end, other)
	r.connsMu.Unlock()
	if v.Call == nil {
		go discard(other)
		return reflect.ValueOf(&end).Elem().Convert(t), nil
	}
	// The peer is built while the object is: a handshake needs both.
	// Whether it fails shows in what the object does.
	peer := scope{objs: sc.objs, results: sc.results, peer: reflect.ValueOf(&other).Elem()}
	call := *v.Call
	go func() { _, _ = r.construct(call, &peer) }()
	return reflect.ValueOf(&end).Elem().Convert(t), nil
}

// discard reads c until it fails, and drops what it reads.
func discard(c net.Conn) {
	buf := make([]byte, 4096)
	for {
		if _, err := c.Read(buf); err != nil {
			return
		}
	}
}

// listenerType is the type of a KListener value.
var listenerType = reflect.TypeOf((*net.Listener)(nil)).Elem()

// newListener returns a new TCP listener on a free port of the loopback
// interface (KListener), for a parameter of type t: a net.Listener. It is
// closed after RequestTimeout, or once sc's requests end (the other of
// the two concurrent calls has returned), so that a server's Serve
// returns; and with the iteration's objects (closeConns).
func (r *Registry) newListener(t reflect.Type, sc *scope) (reflect.Value, error) {
	if !listenerType.AssignableTo(t) {
		return reflect.Value{}, fmt.Errorf("listener value for parameter of type %s", t)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return reflect.Value{}, err
	}
	r.connsMu.Lock()
	r.conns = append(r.conns, ln)
	r.connsMu.Unlock()
	timer := time.AfterFunc(RequestTimeout, func() { ln.Close() })
	sc.leave = append(sc.leave, func() {
		timer.Stop()
		ln.Close()
	})
	return reflect.ValueOf(&ln).Elem().Convert(t), nil
}

// closeConns closes the connections and listeners made so far, whose
// objects are no longer used: their goroutines see the end of the
// connection and return.
func (r *Registry) closeConns() {
	r.connsMu.Lock()
	conns := r.conns
	r.conns = nil
	r.connsMu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// peerEnd returns the other end of the connection whose peer is being
// built (KPeer).
func peerEnd(t reflect.Type, sc *scope) (reflect.Value, error) {
	if !sc.peer.IsValid() {
		return reflect.Value{}, fmt.Errorf("peer value outside a connection's peer")
	}
	if !connType.AssignableTo(t) {
		return reflect.Value{}, fmt.Errorf("peer value for parameter of type %s", t)
	}
	return sc.peer.Convert(t), nil
}
