package lockflow

import (
	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A Summary is the net effect of a function on the locks its caller can
// name (through its parameters, free variables and package variables):
// for each lock, the set of its states at the function's returns.
type Summary struct {
	Effects  map[string]uint8
	Paths    map[string]lockstate.ExactPath
	Read     map[string]bool
	NoReturn bool
	// EntryReleased lists the locks the function releases while they
	// may be held on entry (its caller's lock), as opposed to those it
	// acquires and releases itself: both end released (Released).
	EntryReleased map[string]bool
}

// summarize computes the function's net effect from its returns.
func (f *Flow) summarize() {
	s := &Summary{Effects: map[string]uint8{}, Paths: map[string]lockstate.ExactPath{}, Read: map[string]bool{}, NoReturn: true,
		EntryReleased: map[string]bool{}}
	for k := range f.entryReleased {
		if !f.paths[k].Local() {
			s.EntryReleased[k] = true
		}
	}
	for _, r := range f.Returns() {
		st := f.before(r)
		if st == nil || st.dead {
			continue
		}
		s.NoReturn = false
		for k, p := range f.paths {
			if p.Local() {
				continue
			}
			v := st.exit(k)
			if v == Untouched {
				continue
			}
			if st.getDef(k)&dR != 0 && st.get(k)&Untouched != 0 {
				// A deferred release of a lock it may be entered
				// holding.
				s.EntryReleased[k] = true
			}
			s.Effects[k] |= v
			s.Paths[k] = p
			if a, ok := st.site[k]; ok && a.Read {
				s.Read[k] = true
			}
		}
	}
	// A lock changed on some returns only is untouched on the others.
	for k := range s.Effects {
		for _, r := range f.Returns() {
			st := f.before(r)
			if st == nil || st.dead {
				continue
			}
			if st.exit(k) == Untouched {
				s.Effects[k] |= Untouched
			}
		}
	}
	f.summary = s
}

// effect returns the states lock k may be in at the function's returns,
// as its caller sees it (0 for a lock the caller cannot name).
func (f *Flow) effect(k string) uint8 {
	if f.summary == nil {
		return 0
	}
	return f.summary.Effects[k]
}
