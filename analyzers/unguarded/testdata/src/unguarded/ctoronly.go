package unguarded

import "sync"

// A cache of buckets: New initialises each bucket through Init, before
// the cache is returned. Init writes without b.mu and is silent.
type bucket struct {
	mu     sync.Mutex
	chunks [][]byte
	m      map[uint64]uint64
}

func (b *bucket) Init(n int) {
	b.chunks = make([][]byte, n)
	b.m = map[uint64]uint64{}
}

func (b *bucket) Set(k, v uint64) {
	b.mu.Lock()
	b.m[k] = v
	b.chunks = append(b.chunks, nil)
	b.mu.Unlock()
}

func (b *bucket) Get(k uint64) uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = len(b.chunks)
	return b.m[k]
}

type BucketCache struct {
	buckets [4]bucket
}

func NewBucketCache(n int) *BucketCache {
	c := &BucketCache{}
	for i := range c.buckets {
		c.buckets[i].Init(n)
	}
	return c
}

func (c *BucketCache) Set(k, v uint64) { c.buckets[k%4].Set(k, v) }

// A counter configured by the limiter's constructor through an
// interface: Config is a set-up hook only NewLimiter calls. Silent.
type counterIface interface {
	Config(window int)
	Inc(key string) int
}

type localCounter struct {
	mu     sync.Mutex
	window int
	counts map[string]int
}

func (c *localCounter) Config(window int) { c.window = window }

func (c *localCounter) Inc(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.window > 0 {
		c.counts[key]++
	}
	return c.counts[key] + c.window
}

func (c *localCounter) Window() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.window
}

type ctorLimiter struct {
	counter counterIface
}

func NewLimiter(window int) *ctorLimiter {
	c := &localCounter{counts: map[string]int{}}
	c.Config(window)
	return &ctorLimiter{counter: c}
}

func (l *ctorLimiter) Allow(key string) bool { return l.counter.Inc(key) < 10 }

// Reset is also called by a method: an entry point, reported.
type shard struct {
	mu    sync.Mutex
	items map[int]int
	n     int
}

func (s *shard) Reset() { s.n = 0 } // want `s.n is written in Reset without s.mu`

func (s *shard) Put(k int) {
	s.mu.Lock()
	s.items[k] = k
	s.n++
	s.mu.Unlock()
}

func (s *shard) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

type Shards struct{ s [2]shard }

func NewShards() *Shards {
	x := &Shards{}
	x.s[0].Reset()
	return x
}

func (x *Shards) Clear() { x.s[1].Reset() }
