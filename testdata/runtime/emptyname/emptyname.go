// Package emptyname has a self-deadlock on the path a reserved name
// takes, and a correct twin.
package emptyname

import "sync"

// reserved is the name that stands for the default group.
const reserved = "*"

// Groups counts members by group name.
type Groups struct {
	mu sync.Mutex
	m  map[string]int
}

// NewGroups returns empty groups.
func NewGroups() *Groups { return &Groups{m: map[string]int{}} }

// Add counts n members in the named group; the reserved name adds to the
// default group, whose name defaultName locks again to read.
func (g *Groups) Add(name string, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if name == reserved {
		name = g.defaultName()
	}
	g.m[name] += n
}

func (g *Groups) defaultName() string {
	g.mu.Lock() // the self-deadlock: Add holds it
	defer g.mu.Unlock()
	return "default"
}

// Count returns the members of the named group.
func (g *Groups) Count(name string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m[name]
}

// Teams is Groups without the bug: the default name needs no lock.
type Teams struct {
	mu sync.Mutex
	m  map[string]int
}

// NewTeams returns empty teams.
func NewTeams() *Teams { return &Teams{m: map[string]int{}} }

// Add counts n members in the named team.
func (t *Teams) Add(name string, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if name == reserved {
		name = defaultTeam()
	}
	t.m[name] += n
}

func defaultTeam() string { return "default" }

// Count returns the members of the named team.
func (t *Teams) Count(name string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[name]
}
