// Connection pools that a user obtains only as the Conns interface, from
// a configuration that must be complete (its Factory and Close set) and
// consistent (InitialCap ≤ MaxIdle ≤ MaxCap): connPool counts its open
// connections in Put without its lock; safeConnPool, its twin, is
// correct. strictPool's constructor dials once and refuses a factory
// that returns no connection: no object of it can be built, and its
// zero value is nothing a user can have.

package objects

import (
	"errors"
	"sync"
)

// Conns hands out connections and takes them back.
type Conns interface {
	Get() (interface{}, error)
	Put(c interface{})
	Len() int
}

// ConnConfig configures a pool of connections.
type ConnConfig struct {
	InitialCap, MaxIdle, MaxCap int
	Factory                     func() (interface{}, error)
	Close                       func(interface{}) error
}

// check reports what makes cfg unusable.
func (cfg *ConnConfig) check() error {
	if cfg == nil || cfg.Factory == nil || cfg.Close == nil {
		return errors.New("objects: invalid factory func settings")
	}
	if cfg.InitialCap < 0 || cfg.InitialCap > cfg.MaxIdle || cfg.MaxIdle > cfg.MaxCap || cfg.MaxCap == 0 {
		return errors.New("objects: invalid capacity settings")
	}
	return nil
}

type connPool struct {
	mu    sync.Mutex
	idle  chan interface{}
	cfg   ConnConfig
	open  int
	taken int
}

// NewConns returns a pool of connections. It is safe for concurrent use.
func NewConns(cfg *ConnConfig) (Conns, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &connPool{idle: make(chan interface{}, cfg.MaxIdle), cfg: *cfg}, nil
}

// Get returns an idle connection or a new one.
func (p *connPool) Get() (interface{}, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.taken++
	select {
	case c := <-p.idle:
		return c, nil
	default:
	}
	p.open++
	return p.cfg.Factory()
}

// Put gives a connection back.
func (p *connPool) Put(c interface{}) {
	p.taken-- // the race
	select {
	case p.idle <- c:
	default:
		p.mu.Lock()
		p.open--
		p.mu.Unlock()
		_ = p.cfg.Close(c)
	}
}

// Len returns the number of open connections.
func (p *connPool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open
}

type safeConnPool struct {
	mu    sync.Mutex
	idle  chan interface{}
	cfg   ConnConfig
	open  int
	taken int
}

// NewSafeConns returns a pool of connections. It is safe for concurrent
// use.
func NewSafeConns(cfg *ConnConfig) (Conns, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &safeConnPool{idle: make(chan interface{}, cfg.MaxIdle), cfg: *cfg}, nil
}

// Get returns an idle connection or a new one.
func (p *safeConnPool) Get() (interface{}, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.taken++
	select {
	case c := <-p.idle:
		return c, nil
	default:
	}
	p.open++
	return p.cfg.Factory()
}

// Put gives a connection back.
func (p *safeConnPool) Put(c interface{}) {
	p.mu.Lock()
	p.taken--
	p.mu.Unlock()
	select {
	case p.idle <- c:
	default:
		p.mu.Lock()
		p.open--
		p.mu.Unlock()
		_ = p.cfg.Close(c)
	}
}

// Len returns the number of open connections.
func (p *safeConnPool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open
}

type strictPool struct {
	mu   sync.Mutex
	cfg  ConnConfig
	open int
}

// NewStrictConns returns a pool of connections once a first connection
// was made. It is safe for concurrent use.
func NewStrictConns(cfg *ConnConfig) (Conns, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	c, err := cfg.Factory()
	if err != nil || c == nil {
		return nil, errors.New("objects: the factory made no connection")
	}
	return &strictPool{cfg: *cfg, open: 1}, nil
}

// Get returns a new connection.
func (p *strictPool) Get() (interface{}, error) {
	p.open++ // a race, on objects no user can have
	return p.cfg.Factory()
}

// Put closes a connection.
func (p *strictPool) Put(c interface{}) {
	p.mu.Lock()
	p.open--
	p.mu.Unlock()
	_ = p.cfg.Close(c)
}

// Len returns the number of open connections.
func (p *strictPool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open
}
