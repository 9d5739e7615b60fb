// Package aliases keeps a table of short names for network addresses.
package aliases

import (
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Errors returned by Table methods.
var (
	ErrNotFound   = errors.New("aliases: no such name")
	ErrBadAddress = errors.New("aliases: invalid host:port address")
)

// Table maps names to host:port addresses and lists them in the order
// they were added. A Table is safe for concurrent use by multiple
// goroutines.
type Table struct {
	mu    sync.Mutex
	names []string
	addrs []string
	index map[string]int // position of each name in names and addrs

	// version is bumped by every Remove, which may move a name to another
	// position.
	version atomic.Int64
}

// NewTable returns an empty table with room for capacity names.
func NewTable(capacity int) *Table {
	if capacity < 0 {
		capacity = 0
	}
	return &Table{
		names: make([]string, 0, capacity),
		addrs: make([]string, 0, capacity),
		index: make(map[string]int, capacity),
	}
}

// Add maps name to addr, replacing an earlier mapping of name.
func (t *Table) Add(name, addr string) error {
	addr, err := canonical(addr)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.index[name]; ok {
		t.addrs[i] = addr
		return nil
	}
	t.index[name] = len(t.names)
	t.names = append(t.names, name)
	t.addrs = append(t.addrs, addr)
	return nil
}

// Retarget points an existing name at a new address.
func (t *Table) Retarget(name, addr string) error {
	i, v, ok := t.position(name)
	if !ok {
		return ErrNotFound
	}
	addr, err := canonical(addr)
	if err != nil {
		return err
	}
	if t.version.Load() != v { // names moved meanwhile: look again
		return t.Retarget(name, addr)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.addrs[i] = addr
	return nil
}

// Remove deletes name. It reports false if name was not in the table.
func (t *Table) Remove(name string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.version.Add(1)
	i, ok := t.index[name]
	if !ok {
		return false
	}
	last := len(t.names) - 1
	t.names[i], t.addrs[i] = t.names[last], t.addrs[last]
	t.index[t.names[i]] = i
	t.names, t.addrs = t.names[:last], t.addrs[:last]
	delete(t.index, name)
	return true
}

// Lookup returns the address of name.
func (t *Table) Lookup(name string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i, ok := t.index[name]
	if !ok {
		return "", false
	}
	return t.addrs[i], true
}

// Names returns the names in the table.
func (t *Table) Names() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.names...)
}

// position returns the position of name in the table and the version
// of the table it was found in.
func (t *Table) position(name string) (int, int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i, ok := t.index[name]
	return i, t.version.Load(), ok
}

// canonical checks a host:port address and lower-cases its host; an
// address without a port gets port 80. The host is an IP address or a
// DNS name.
func canonical(addr string) (string, error) {
	if !strings.Contains(addr, ":") {
		addr += ":80"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", ErrBadAddress
	}
	if p, err := strconv.ParseUint(port, 10, 16); err != nil || p == 0 {
		return "", ErrBadAddress
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if net.ParseIP(host) == nil && !validName(host) {
		return "", ErrBadAddress
	}
	return net.JoinHostPort(host, port), nil
}

// validName reports whether host is a DNS name: dot-separated labels of
// 1 to 63 letters, digits and inner hyphens, 253 bytes at most.
func validName(host string) bool {
	if host == "" || len(host) > 253 {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range []byte(label) {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
