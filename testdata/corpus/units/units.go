// Package units converts quantities between units of length, mass and
// time.
package units

import (
	"errors"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrUnknown is returned for a unit the converter does not know.
var ErrUnknown = errors.New("units: unknown unit")

// ErrMismatch is returned when two units measure different dimensions.
var ErrMismatch = errors.New("units: incompatible units")

// Converter converts between the built-in units and units defined by the
// caller. The zero value is ready to use; the table of defined units is
// created by the first Define. A Converter is safe for concurrent use by
// multiple goroutines.
type Converter struct {
	custom atomic.Bool // some unit was defined: lookups consult the table
	tab    atomic.Pointer[table]
}

type unit struct {
	dim    string
	factor float64 // in the dimension's base unit
}

// A table holds the units defined by the caller.
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

// unitName is the syntax of a unit name: a letter, then letters, digits
// and underscores.
var unitName = regexp.MustCompile(`^\pL[\pL\pN_]*$`)

// lookup returns the unit called name, looking at the defined units first.
func (c *Converter) lookup(name string) (unit, bool) {
	if c.custom.Load() {
		t := c.tab.Load()
		t.mu.RLock()
		u, ok := t.defined[name]
		t.mu.RUnlock()
		if ok {
			return u, true
		}
	}
	u, ok := builtin[name]
	return u, ok
}

// Convert converts v from unit from to unit to.
func (c *Converter) Convert(v float64, from, to string) (float64, error) {
	uf, ok1 := c.lookup(normalize(from))
	ut, ok2 := c.lookup(normalize(to))
	switch {
	case !ok1 || !ok2:
		return 0, ErrUnknown
	case uf.dim != ut.dim:
		return 0, ErrMismatch
	}
	return v * uf.factor / ut.factor, nil
}

// Define adds a unit of dimension dim worth factor of the dimension's
// base unit, or redefines one. The dimension is one of those of the
// built-in units (length, mass, time).
func (c *Converter) Define(name, dim string, factor float64) error {
	if factor <= 0 || factor != factor || factor > 1e300 {
		return errors.New("units: factor must be positive and finite")
	}
	name, dim = normalize(name), normalize(dim)
	if !unitName.MatchString(name) || builtin[name].dim != "" && builtin[name].dim != dim {
		return errors.New("units: invalid unit name " + strconv.Quote(name))
	}
	if !slices.Contains(Dimensions(), dim) {
		return errors.New("units: unknown dimension " + strconv.Quote(dim))
	}
	t := c.tab.Load()
	if t == nil {
		t = &table{defined: make(map[string]unit)}
		c.custom.Store(true)
		if !c.tab.CompareAndSwap(nil, t) {
			t = c.tab.Load()
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.defined[name] = unit{dim, factor}
	return nil
}

// Known reports whether name is a unit.
func (c *Converter) Known(name string) bool {
	_, ok := c.lookup(normalize(name))
	return ok
}

// Units returns the sorted names of the units of dimension dim.
func (c *Converter) Units(dim string) []string {
	seen := make(map[string]bool)
	for n, u := range builtin {
		if u.dim == dim {
			seen[n] = true
		}
	}
	if c.custom.Load() {
		t := c.tab.Load()
		t.mu.RLock()
		for n, u := range t.defined {
			seen[n] = u.dim == dim
		}
		t.mu.RUnlock()
	}
	var names []string
	for n, ok := range seen {
		if ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Dimensions returns the sorted dimensions of the built-in units.
func Dimensions() []string {
	var dims []string
	for _, u := range builtin {
		if !slices.Contains(dims, u.dim) {
			dims = append(dims, u.dim)
		}
	}
	sort.Strings(dims)
	return dims
}

func normalize(name string) string {
	return strings.ToLower(strings.TrimSpace(name))
}
