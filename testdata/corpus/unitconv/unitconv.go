// Package unitconv converts quantities between units of length and mass.
package unitconv

import (
	"errors"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrUnknown is returned for a unit the converter does not know.
var ErrUnknown = errors.New("unitconv: unknown unit")

// Converter converts between the built-in units and units defined by the
// caller. The zero value is ready to use; its table is created on first
// use. A Converter is safe for concurrent use by multiple goroutines.
type Converter struct {
	tab atomic.Pointer[table]
}

type unit struct {
	dim    string
	factor float64
}

type table struct {
	mu      sync.RWMutex
	defined map[string]unit
}

var builtin = map[string]unit{
	"m": {"length", 1}, "km": {"length", 1000}, "cm": {"length", 0.01},
	"in": {"length", 0.0254}, "ft": {"length", 0.3048}, "mi": {"length", 1609.344},
	"kg": {"mass", 1}, "g": {"mass", 0.001}, "lb": {"mass", 0.45359237},
}

// table returns the unit table, creating it on first use. Of two first
// calls, the one whose CompareAndSwap fails uses the other's table.
func (c *Converter) table() *table {
	if t := c.tab.Load(); t != nil {
		return t
	}
	c.tab.CompareAndSwap(nil, new(table))
	return c.tab.Load()
}

func (t *table) lookup(name string) (unit, bool) {
	if u, ok := t.defined[name]; ok {
		return u, true
	}
	u, ok := builtin[name]
	return u, ok
}

// Convert converts v from unit from to unit to.
func (c *Converter) Convert(v float64, from, to string) (float64, error) {
	t := c.table()
	t.mu.RLock()
	defer t.mu.RUnlock()
	uf, ok1 := t.lookup(strings.ToLower(from))
	ut, ok2 := t.lookup(strings.ToLower(to))
	if !ok1 || !ok2 || uf.dim != ut.dim {
		return 0, ErrUnknown
	}
	return v * uf.factor / ut.factor, nil
}

// Define adds a unit of dimension dim worth factor of the dimension's
// base unit, or redefines one.
func (c *Converter) Define(name, dim string, factor float64) error {
	if factor <= 0 {
		return errors.New("unitconv: factor must be positive")
	}
	t := c.table()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.defined == nil {
		t.defined = make(map[string]unit)
	}
	t.defined[strings.ToLower(name)] = unit{dim, factor}
	return nil
}

// Known reports whether name is a unit.
func (c *Converter) Known(name string) bool {
	t := c.table()
	t.mu.RLock()
	defer t.mu.RUnlock()
	_, ok := t.lookup(strings.ToLower(name))
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
