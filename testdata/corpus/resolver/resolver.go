// Package resolver maps host names to addresses, caching every answer.
package resolver

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"sync"
)

// Resolver answers address lookups for the hosts of one domain. Pinned
// addresses take precedence over computed ones. A Resolver is safe for
// concurrent use by multiple goroutines.
type Resolver struct {
	domain string

	mu    sync.RWMutex
	addrs map[string]string
}

// NewResolver returns a Resolver for domain.
func NewResolver(domain string) *Resolver {
	return &Resolver{domain: strings.ToLower(domain), addrs: make(map[string]string)}
}

func (r *Resolver) fqdn(host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if r.domain == "" || strings.HasSuffix(host, "."+r.domain) {
		return host
	}
	return host + "." + r.domain
}

// Lookup returns the address of host.
func (r *Resolver) Lookup(host string) string {
	name := r.fqdn(host)
	r.mu.RLock()
	defer r.mu.RUnlock()
	if addr, ok := r.addrs[name]; ok {
		return addr
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	sum := h.Sum32()
	addr := fmt.Sprintf("10.%d.%d.%d", byte(sum>>16), byte(sum>>8), byte(sum))
	r.addrs[name] = addr
	return addr
}

// Pin fixes the address of host.
func (r *Resolver) Pin(host, addr string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addrs[r.fqdn(host)] = addr
}

// Forget drops the cached address of host.
func (r *Resolver) Forget(host string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.addrs, r.fqdn(host))
}

// Len returns the number of known hosts.
func (r *Resolver) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.addrs)
}

// Hosts returns the known host names, sorted.
func (r *Resolver) Hosts() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	hosts := make([]string, 0, len(r.addrs))
	for h := range r.addrs {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	return hosts
}
