package indirect

import "sync"

// Locks taken inside a sync.Once body run on a path that already holds
// them: the body runs in the calling goroutine, with the caller's locks.

type Cache struct {
	mu   sync.Mutex
	once sync.Once
	m    map[string]int
}

// lazyInit runs f the first time it is called.
func (c *Cache) lazyInit(f func()) { c.once.Do(f) }

func (c *Cache) load() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = map[string]int{}
}

// Get holds c.mu while the Once runs load, which locks c.mu again: the
// first Get never returns.
func (c *Cache) Get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lazyInit(c.load) // want `c.mu is locked \(in load, called through a function value\) while already held \(locked at once.go:26:11\)`
	return c.m[k]
}

// GetOK initialises before taking the lock.
func (c *Cache) GetOK(k string) int {
	c.lazyInit(c.load)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

// GetFill runs, under the lock, an initialisation that does not lock.
func (c *Cache) GetFill(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lazyInit(func() { c.m = map[string]int{} })
	return c.m[k]
}

// A function made once by sync.OnceValue and stored in a field.
type Config struct {
	mu     sync.Mutex
	values map[string]string
	size   func() int
}

func NewConfig() *Config {
	c := &Config{values: map[string]string{}}
	c.size = sync.OnceValue(func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.values)
	})
	return c
}

// Lookup holds c.mu while the first call of c.size runs its function,
// which locks c.mu again.
func (c *Config) Lookup(k string) (string, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.values[k], c.size() // want `c.mu is locked \(in NewConfig\$1, called through a function value\) while already held`
}

// LookupOK calls it after unlocking.
func (c *Config) LookupOK(k string) (string, int) {
	c.mu.Lock()
	v := c.values[k]
	c.mu.Unlock()
	return v, c.size()
}
