// Package hashring maps keys to nodes with consistent hashing.
package hashring

import (
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
)

// Ring assigns keys to a changing set of nodes so that adding or removing
// a node moves only the keys of that node. Each node is placed on the ring
// at a fixed number of virtual points. Lookups are cached until the
// membership changes. A Ring is safe for concurrent use by multiple
// goroutines.
type Ring struct {
	replicas int
	members  atomic.Pointer[[]string] // copy on write

	mu     sync.Mutex
	points []point // sorted by hash

	cacheMu sync.Mutex
	cache   map[string]string
	hits    int
}

type point struct {
	hash uint32
	node string
}

// NewRing returns an empty ring that places each node at replicas points
// (160 when replicas is 0 or less).
func NewRing(replicas int) *Ring {
	if replicas <= 0 {
		replicas = 160
	}
	r := &Ring{replicas: replicas}
	empty := new([]string)
	r.members.Store(empty)
	r.install(empty, nil, nil)
	return r
}

// Add adds node to the ring. It reports false if node is already a member.
func (r *Ring) Add(node string) bool {
	for {
		old := r.members.Load()
		if slices.Contains(*old, node) {
			return false
		}
		nodes := append(slices.Clip(*old), node)
		if r.install(old, nodes, r.place(nodes)) {
			return true
		}
	}
}

// Remove removes node from the ring. It reports false if node is not a
// member.
func (r *Ring) Remove(node string) bool {
	for {
		old := r.members.Load()
		i := slices.Index(*old, node)
		if i < 0 {
			return false
		}
		nodes := slices.Delete(slices.Clone(*old), i, i+1)
		if r.install(old, nodes, r.place(nodes)) {
			return true
		}
	}
}

// Has reports whether node is a member of the ring.
func (r *Ring) Has(node string) bool {
	return slices.Contains(*r.members.Load(), node)
}

// Nodes returns the members of the ring in the order they were added.
func (r *Ring) Nodes() []string {
	return slices.Clone(*r.members.Load())
}

// Lookup returns the node that owns key, or "" when the ring is empty.
func (r *Ring) Lookup(key string) string {
	r.cacheMu.Lock()
	r.mu.Lock()
	defer r.cacheMu.Unlock()
	defer r.mu.Unlock()
	if n, ok := r.cache[key]; ok {
		r.hits++
		return n
	}
	n := r.locate(key)
	r.cache[key] = n
	return n
}

// CacheHits returns how many lookups were answered from the cache.
func (r *Ring) CacheHits() int {
	r.cacheMu.Lock()
	defer r.cacheMu.Unlock()
	return r.hits
}

// place computes the sorted virtual points of nodes.
func (r *Ring) place(nodes []string) []point {
	points := make([]point, 0, len(nodes)*r.replicas)
	var buf []byte
	for _, n := range nodes {
		for i := 0; i < r.replicas; i++ {
			buf = strconv.AppendInt(append(append(buf[:0], n...), '#'), int64(i), 10)
			points = append(points, point{hashOf(buf), n})
		}
	}
	sort.Slice(points, func(i, j int) bool { return points[i].hash < points[j].hash })
	return points
}

// install replaces the membership computed from old by nodes and drops
// the cached lookups. It reports false, changing nothing, when the
// membership is no longer old.
func (r *Ring) install(old *[]string, nodes []string, points []point) bool {
	r.mu.Lock()
	r.cacheMu.Lock()
	defer r.mu.Unlock()
	defer r.cacheMu.Unlock()
	if r.members.Load() != old {
		return false
	}
	r.points = points
	r.members.Store(&nodes)
	r.cache = make(map[string]string)
	return true
}

// locate finds the owner of key; r.mu must be held.
func (r *Ring) locate(key string) string {
	if len(r.points) == 0 {
		return ""
	}
	h := hashOf(key)
	i := sort.Search(len(r.points), func(i int) bool { return r.points[i].hash >= h })
	if i == len(r.points) {
		i = 0
	}
	return r.points[i].node
}

// hashOf returns the 32-bit FNV-1a hash of b.
func hashOf[T string | []byte](b T) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(b); i++ {
		h ^= uint32(b[i])
		h *= 16777619
	}
	return h
}
