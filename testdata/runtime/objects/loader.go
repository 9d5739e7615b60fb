// Loading caches whose loader must return a value that is not nil (they
// keep it in an atomic.Value, which refuses nil), and whose Get needs a
// loader, which only one of their constructors sets: Loading counts its
// hits without its lock; SafeLoading, its twin, is correct.

package objects

import (
	"sync"
	"sync/atomic"
)

// A LoaderFunc loads the value of a key.
type LoaderFunc func(key interface{}) (interface{}, error)

// Loading is a cache that loads missing values.
type Loading struct {
	mu   sync.Mutex
	load LoaderFunc
	vals map[interface{}]*atomic.Value
	hits int
}

// NewLoading returns a cache that loads with load.
func NewLoading(load LoaderFunc) *Loading {
	return &Loading{load: load, vals: map[interface{}]*atomic.Value{}}
}

// NewPlain returns a cache without a loader, for Put and Hits only: Get
// panics on it.
func NewPlain() *Loading { return &Loading{vals: map[interface{}]*atomic.Value{}} }

// Put sets the value of key.
func (c *Loading) Put(key, value interface{}) {
	v := new(atomic.Value)
	v.Store(value)
	c.mu.Lock()
	c.vals[key] = v
	c.mu.Unlock()
}

// Get returns the value of key, loading it when it is missing.
func (c *Loading) Get(key interface{}) (interface{}, error) {
	if c.load == nil {
		panic("objects: Get needs a loader")
	}
	c.mu.Lock()
	v, ok := c.vals[key]
	c.mu.Unlock()
	if ok {
		c.hits++ // the race
		return v.Load(), nil
	}
	x, err := c.load(key)
	if err != nil {
		return nil, err
	}
	nv := new(atomic.Value)
	nv.Store(x)
	c.mu.Lock()
	c.vals[key] = nv
	c.mu.Unlock()
	return x, nil
}

// Hits returns how many Gets found their value.
func (c *Loading) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// SafeLoading is a cache that loads missing values.
type SafeLoading struct {
	mu   sync.Mutex
	load LoaderFunc
	vals map[interface{}]*atomic.Value
	hits int
}

// NewSafeLoading returns a cache that loads with load.
func NewSafeLoading(load LoaderFunc) *SafeLoading {
	return &SafeLoading{load: load, vals: map[interface{}]*atomic.Value{}}
}

// NewSafePlain returns a cache without a loader, for Put and Hits only:
// Get panics on it.
func NewSafePlain() *SafeLoading { return &SafeLoading{vals: map[interface{}]*atomic.Value{}} }

// Put sets the value of key.
func (c *SafeLoading) Put(key, value interface{}) {
	v := new(atomic.Value)
	v.Store(value)
	c.mu.Lock()
	c.vals[key] = v
	c.mu.Unlock()
}

// Get returns the value of key, loading it when it is missing.
func (c *SafeLoading) Get(key interface{}) (interface{}, error) {
	if c.load == nil {
		panic("objects: Get needs a loader")
	}
	c.mu.Lock()
	v, ok := c.vals[key]
	if ok {
		c.hits++
	}
	c.mu.Unlock()
	if ok {
		return v.Load(), nil
	}
	x, err := c.load(key)
	if err != nil {
		return nil, err
	}
	nv := new(atomic.Value)
	nv.Store(x)
	c.mu.Lock()
	c.vals[key] = nv
	c.mu.Unlock()
	return x, nil
}

// Hits returns how many Gets found their value.
func (c *SafeLoading) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}
