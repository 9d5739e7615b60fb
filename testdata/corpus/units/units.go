// Package units converts quantities between units of length, mass and
// time.
package units

import (
	"errors"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrUnknown is returned for a unit the converter does not know.
var ErrUnknown = errors.New("units: unknown unit")

// ErrMismatch is returned when two units measure different dimensions.
var ErrMismatch = errors.New("units: incompatible units")

// Converter converts between the built-in units and units defined by the
// caller. The zero value is ready to use; its table is created on first
// use. A Converter
// is safe for concurrent use by multiple goroutines.
type Converter struct {
	started atomic.Bool
	tab     atomic.Pointer[table]
}

type unit struct {
	dim    string
	factor float64 // in the dimension's base unit
}

// A table holds the units defined by the caller over the built-in ones.
type table struct {
	mu      sync.RWMutex
	defined map[string]unit
}

var builtin = map[string]unit{
	"m": {"length", 1}, "km": {"length", 1000}, "cm": {"length", 0.01},
	"mm": {"length", 0.001}, "in": {"length", 0.0254}, "ft": {"length", 0.3048},
	"yd": {"length", 0.9144}, "mi": {"length", 1609.344},
	"kg": {"mass", 1}, "g": {"mass", 0.001}, "t": {"mass", 1000},
	"lb": {"mass", 0.45359237}, "oz": {"mass", 0.028349523125},
	"s": {"time", 1}, "min": {"time", 60}, "h": {"time", 3600}, "d": {"time", 86400},
}

// table returns the unit table, creating it on first use.
func (c *Converter) table() *table {
	if t := c.tab.Load(); t != nil {
		return t
	}
	t := new(table)
	if c.started.CompareAndSwap(false, true) {
		c.tab.Store(t)
	}
	return c.tab.Load()
}

// lookup returns the unit called name; t.mu must be held.
func (t *table) lookup(name string) (unit, bool) {
	if u, ok := t.defined[name]; ok {
		return u, true
	}
	u, ok := builtin[name]
	return u, ok
}

// Convert converts v from unit from to unit to.
func (c *Converter) Convert(v float64, from, to string) (float64, error) {
	from, to = normalize(from), normalize(to)
	t := c.table()
	t.mu.RLock()
	defer t.mu.RUnlock()
	uf, ok1 := t.lookup(from)
	ut, ok2 := t.lookup(to)
	switch {
	case !ok1 || !ok2:
		return 0, ErrUnknown
	case uf.dim != ut.dim:
		return 0, ErrMismatch
	}
	return v * uf.factor / ut.factor, nil
}

// Define adds a unit of dimension dim worth factor of the dimension's
// base unit, or redefines one.
func (c *Converter) Define(name, dim string, factor float64) error {
	if factor <= 0 {
		return errors.New("units: factor must be positive")
	}
	name = normalize(name)
	t := c.table()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.defined == nil {
		t.defined = make(map[string]unit)
	}
	t.defined[name] = unit{dim, factor}
	return nil
}

// Known reports whether name is a unit.
func (c *Converter) Known(name string) bool {
	name = normalize(name)
	t := c.table()
	t.mu.RLock()
	defer t.mu.RUnlock()
	_, ok := t.lookup(name)
	return ok
}

// Units returns the sorted names of the units of dimension dim.
func (c *Converter) Units(dim string) []string {
	t := c.table()
	t.mu.RLock()
	defer t.mu.RUnlock()
	var names []string
	for n, u := range builtin {
		if _, ok := t.defined[n]; !ok && u.dim == dim {
			names = append(names, n)
		}
	}
	for n, u := range t.defined {
		if u.dim == dim {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func normalize(name string) string {
	return strings.ToLower(strings.TrimSpace(name))
}
