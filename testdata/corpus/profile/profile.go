// Package profile holds a user's display preferences.
package profile

import (
	"sort"
	"strings"
	"sync"
)

// Profile is a set of named preferences with defaults. A Profile is safe
// for concurrent use by multiple goroutines.
type Profile struct {
	user string

	mu       sync.RWMutex
	prefs    map[string]string
	defaults map[string]string
	rev      int
}

// NewProfile returns the profile of user with the standard defaults.
func NewProfile(user string) *Profile {
	return &Profile{
		user:  user,
		prefs: make(map[string]string),
		defaults: map[string]string{
			"theme": "light", "lang": "en", "tz": "UTC", "font": "sans",
			"density": "normal", "dates": "iso", "units": "metric", "start": "home",
		},
	}
}

// Get returns the value of the preference key, or its default.
func (p *Profile) Get(key string) string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if v, ok := p.prefs[key]; ok {
		return v
	}
	return p.defaults[key]
}

// Set sets the preference key to value; an empty value restores the
// default.
func (p *Profile) Set(key, value string) {
	key = strings.ToLower(strings.TrimSpace(key))
	p.mu.Lock()
	defer p.mu.Unlock()
	if value == "" {
		delete(p.prefs, key)
	} else {
		p.prefs[key] = value
	}
	p.rev++
}

// Revision returns the number of changes made so far.
func (p *Profile) Revision() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.rev
}

// Customized returns the sorted keys set to something other than their
// default.
func (p *Profile) Customized() []string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	var keys []string
	for k, v := range p.prefs {
		if v != p.defaults[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// Export renders every preference, defaults included, as sorted
// key=value lines, headed by the user and the revision.
func (p *Profile) Export() string {
	// The defaults are fixed by NewProfile, so their keys are collected
	// and sorted before taking the lock.
	keys := make([]string, 0, len(p.defaults)+4)
	for k := range p.defaults {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	p.mu.RLock()
	defer p.mu.RUnlock()
	rev := p.Revision()
	var b strings.Builder
	b.WriteString("# " + p.user + " r" + itoa(rev) + "\n")
	n := len(keys)
	for k := range p.prefs {
		if _, ok := p.defaults[k]; !ok {
			keys = append(keys, k)
		}
	}
	if len(keys) > n {
		sort.Strings(keys)
	}
	for _, k := range keys {
		v, ok := p.prefs[k]
		if !ok {
			v = p.defaults[k]
		}
		b.WriteString(k + "=" + v + "\n")
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
