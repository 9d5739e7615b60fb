// Package inventory tracks stock levels of items in a warehouse with a
// fixed capacity.
package inventory

import (
	"errors"
	"sort"
	"sync"
)

var (
	// ErrQuantity is returned for non-positive quantities.
	ErrQuantity = errors.New("inventory: quantity must be positive")
	// ErrFull is returned when an addition would exceed the capacity.
	ErrFull = errors.New("inventory: capacity exceeded")
	// ErrShort is returned when not enough stock is available.
	ErrShort = errors.New("inventory: not enough stock")
)

// Inventory counts units per item. An Inventory is safe for concurrent use
// by multiple goroutines.
type Inventory struct {
	mu       sync.Mutex
	capacity int
	stock    map[string]int
}

// NewInventory returns an empty Inventory holding at most capacity units.
func NewInventory(capacity int) *Inventory {
	return &Inventory{capacity: capacity, stock: make(map[string]int)}
}

// Capacity returns the maximum number of units.
func (i *Inventory) Capacity() int { return i.capacity }

// Count returns the units in stock for item.
func (i *Inventory) Count(item string) int {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.stock[item]
}

// Total returns the units in stock over all items.
func (i *Inventory) Total() int {
	i.mu.Lock()
	defer i.mu.Unlock()
	n := 0
	for _, c := range i.stock {
		n += c
	}
	return n
}

// Add puts n units of item into stock.
func (i *Inventory) Add(item string, n int) error {
	if n <= 0 {
		return ErrQuantity
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.Total()+n > i.capacity {
		return ErrFull
	}
	i.stock[item] += n
	return nil
}

// Remove takes n units of item out of stock.
func (i *Inventory) Remove(item string, n int) error {
	if n <= 0 {
		return ErrQuantity
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.stock[item] < n {
		return ErrShort
	}
	i.stock[item] -= n
	if i.stock[item] == 0 {
		delete(i.stock, item)
	}
	return nil
}

// Items returns the names of the items in stock, sorted.
func (i *Inventory) Items() []string {
	i.mu.Lock()
	defer i.mu.Unlock()
	items := make([]string, 0, len(i.stock))
	for name := range i.stock {
		items = append(items, name)
	}
	sort.Strings(items)
	return items
}
