// Package members keeps the members of a site and their password hashes.
package members

import (
	"crypto/sha256"
	"crypto/subtle"
	"sort"
	"sync"
)

// hashRounds is how many times a password is hashed.
const hashRounds = 100

// Directory maps member names to password hashes. Passwords are hashed
// outside the lock, so that the lock is never held for a slow hash; the
// directory is checked again before a hash is stored. A Directory is safe
// for concurrent use by multiple goroutines.
type Directory struct {
	mu      sync.Mutex
	members map[string][sha256.Size]byte
}

// NewDirectory returns an empty directory.
func NewDirectory() *Directory {
	return &Directory{members: make(map[string][sha256.Size]byte)}
}

// hash returns the hash of password, salted with name.
func hash(name, password string) [sha256.Size]byte {
	sum := sha256.Sum256([]byte(name + "\x00" + password))
	for range hashRounds {
		sum = sha256.Sum256(sum[:])
	}
	return sum
}

// Join adds name with password and reports whether it was added; it is
// not added when name is already a member.
func (d *Directory) Join(name, password string) bool {
	d.mu.Lock()
	_, taken := d.members[name]
	d.mu.Unlock()
	if taken {
		return false
	}
	h := hash(name, password)
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, taken := d.members[name]; taken {
		return false
	}
	d.members[name] = h
	return true
}

// Verify reports whether name is a member with password.
func (d *Directory) Verify(name, password string) bool {
	d.mu.Lock()
	want, ok := d.members[name]
	d.mu.Unlock()
	if !ok {
		return false
	}
	got := hash(name, password)
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

// SetPassword changes the password of name from old to password and
// reports whether it did: name must be a member whose password is old.
func (d *Directory) SetPassword(name, old, password string) bool {
	d.mu.Lock()
	cur, ok := d.members[name]
	d.mu.Unlock()
	if !ok {
		return false
	}
	if h := hash(name, old); subtle.ConstantTimeCompare(h[:], cur[:]) != 1 {
		return false
	}
	h := hash(name, password)
	d.mu.Lock()
	defer d.mu.Unlock()
	if now, ok := d.members[name]; !ok || now != cur {
		return false
	}
	d.members[name] = h
	return true
}

// Leave removes name and reports whether it was a member.
func (d *Directory) Leave(name string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.members[name]
	delete(d.members, name)
	return ok
}

// Len returns the number of members.
func (d *Directory) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.members)
}

// Names returns the members' names, sorted.
func (d *Directory) Names() []string {
	d.mu.Lock()
	names := make([]string, 0, len(d.members))
	for name := range d.members {
		names = append(names, name)
	}
	d.mu.Unlock()
	sort.Strings(names)
	return names
}
