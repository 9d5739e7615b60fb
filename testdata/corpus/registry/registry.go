// Package registry keeps a directory of named service endpoints.
package registry

import (
	"sort"
	"sync"
)

// Registry maps service names to endpoint addresses. The zero value is an
// empty Registry ready to use. A Registry is safe for concurrent use by
// multiple goroutines.
type Registry struct {
	m sync.Map // string -> string
}

// Register records addr for name and reports whether name was new.
func (r *Registry) Register(name, addr string) bool {
	_, loaded := r.m.Swap(name, addr)
	return !loaded
}

// RegisterOnce records addr for name unless name is already registered and
// returns the address in effect.
func (r *Registry) RegisterOnce(name, addr string) string {
	v, _ := r.m.LoadOrStore(name, addr)
	return v.(string)
}

// Lookup returns the address of name.
func (r *Registry) Lookup(name string) (string, bool) {
	v, ok := r.m.Load(name)
	if !ok {
		return "", false
	}
	return v.(string), true
}

// Unregister removes name and reports whether it was registered.
func (r *Registry) Unregister(name string) bool {
	_, loaded := r.m.LoadAndDelete(name)
	return loaded
}

// Names returns the registered names, sorted.
func (r *Registry) Names() []string {
	var names []string
	r.m.Range(func(k, _ any) bool {
		names = append(names, k.(string))
		return true
	})
	sort.Strings(names)
	return names
}

// Len returns the number of registered names.
func (r *Registry) Len() int {
	n := 0
	r.m.Range(func(_, _ any) bool {
		n++
		return true
	})
	return n
}
