// plan: Cache: |M|=10 pc=2 d=0; Guarded: |M|=10 pc=0 d=0; Ints: |M|=3 pc=2 d=0; Labels: |M|=3 pc=0 d=0; PtrStore: |M|=10 pc=2 d=0; Stack: |M|=3 pc=2 d=0; Store: |M|=15 pc=2 d=0

// Package genericembed promotes methods through embedded generic types:
// a generic type embedding another generic type, instantiated with its
// own type parameters (Cache, Guarded); a non-generic type embedding an
// instantiation by value (Store) and by pointer (PtrStore). The promoted
// methods keep the accesses and locks of their generic bodies, mapped
// onto the embedding path (recv.common.mu, recv.Cache.common.mu).
package genericembed

import (
	"cmp"
	"fmt"
	"sync"
)

type common[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func (c *common[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *common[K, V]) Set(k K, v V) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

// Cache counts its hits without the lock that Hits reads them under:
// Hit is dependent with Hits and with itself.
type Cache[K comparable, V any] struct {
	*common[K, V]
	hits int
}

// NewCache returns an empty Cache.
func NewCache[K comparable, V any]() *Cache[K, V] {
	return &Cache[K, V]{common: &common[K, V]{m: map[K]V{}}}
}

// Hit counts a hit without the lock.
func (c *Cache[K, V]) Hit() { c.hits++ }

func (c *Cache[K, V]) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// Guarded is the correct twin of Cache: every method holds recv.common.mu.
type Guarded[K comparable, V any] struct {
	*common[K, V]
	hits int
}

// NewGuarded returns an empty Guarded.
func NewGuarded[K comparable, V any]() *Guarded[K, V] {
	return &Guarded[K, V]{common: &common[K, V]{m: map[K]V{}}}
}

func (g *Guarded[K, V]) Hit() {
	g.mu.Lock()
	g.hits++
	g.mu.Unlock()
}

func (g *Guarded[K, V]) Hits() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.hits
}

// Store embeds an instantiation of Cache by value: Get, Set, Hit and
// Hits are promoted through recv.Cache (and Get and Set further through
// recv.Cache.common).
type Store struct {
	Cache[string, int]
	name string
}

// NewStore returns an empty Store.
func NewStore(name string) *Store {
	return &Store{Cache: *NewCache[string, int](), name: name}
}

// Name reads a field that nothing writes after construction.
func (s *Store) Name() string { return s.name }

// PtrStore embeds an instantiation of Cache by pointer.
type PtrStore struct {
	*Cache[string, int]
}

// NewPtrStore returns an empty PtrStore.
func NewPtrStore() *PtrStore { return &PtrStore{NewCache[string, int]()} }

// list has a value-receiver method: Len, promoted through a pointer,
// reads the embedded value. Neither method synchronises.
type list[T any] struct {
	items []T
}

func (l *list[T]) Push(x T) { l.items = append(l.items, x) }

func (l list[T]) Len() int { return len(l.items) }

// Ints embeds an instantiation of list by value.
type Ints struct{ list[int] }

// Stack is generic and embeds list with its own type parameter.
type Stack[T any] struct{ list[T] }

// Labels has type parameters constrained by a type set and by a method:
// its promoted Get and Set are found through an instance whose type
// arguments satisfy them (int, and an interface with String).
type Labels[K cmp.Ordered, V fmt.Stringer] struct {
	*common[K, V]
}

// Seq has a type parameter whose constraint depends on another: no
// instance is made of it, and its promoted methods are left out.
type Seq[S ~[]E, E any] struct {
	*common[int, S]
}
