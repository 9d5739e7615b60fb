// Package wrapper holds a value of another package's type whose fields
// mix atomic and plain accesses: that package's diagnostics, not this
// one's.
package wrapper

import "unguarded"

type Wrapper struct {
	s unguarded.Stats
}

func (w *Wrapper) Hit()         { w.s.Hit() }
func (w *Wrapper) Hits() int64  { return w.s.Hits() }
func (w *Wrapper) Reset()       { w.s.Reset() }
func (w *Wrapper) Count(i int)  { w.s.Count(i) }
func (w *Wrapper) Counts() bool { return w.s.Counts(0) > 0 }
