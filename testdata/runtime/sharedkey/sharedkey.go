// Package sharedkey has a lost update that needs two calls naming the
// key an earlier call registered, and a correct twin.
package sharedkey

import (
	"errors"
	"sync"
)

// ErrUnknown is returned for a key that was not registered.
var ErrUnknown = errors.New("unknown key")

type gauge struct{ v float64 }

// Gauges sums values per registered key.
type Gauges struct {
	mu sync.Mutex
	m  map[float64]*gauge
}

// NewGauges returns no gauges.
func NewGauges() *Gauges { return &Gauges{m: map[float64]*gauge{}} }

// Register adds a gauge for key.
func (g *Gauges) Register(key float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m[key] == nil {
		g.m[key] = &gauge{}
	}
}

// Add adds d to the gauge of key: it looks the gauge up under the lock,
// then updates it without.
func (g *Gauges) Add(key, d float64) error {
	g.mu.Lock()
	ga := g.m[key]
	g.mu.Unlock()
	if ga == nil {
		return ErrUnknown
	}
	ga.v += d // the lost update
	return nil
}

// Meters is Gauges without the bug.
type Meters struct {
	mu sync.Mutex
	m  map[float64]*gauge
}

// NewMeters returns no meters.
func NewMeters() *Meters { return &Meters{m: map[float64]*gauge{}} }

// Register adds a meter for key.
func (g *Meters) Register(key float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m[key] == nil {
		g.m[key] = &gauge{}
	}
}

// Add adds d to the meter of key, under the lock.
func (g *Meters) Add(key, d float64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	ga := g.m[key]
	if ga == nil {
		return ErrUnknown
	}
	ga.v += d
	return nil
}
