// A WaterMark tracks the marks done by its users, once Init has been
// given a closer.Closer, which another package's constructor makes
// (closer.NewCloser): on a zero Closer, Init panics, and Done refuses to
// run before Init. Done updates the mark under the lock, and DoneUntil
// reads it without: the race.

package objects

import (
	"sync"

	"github.com/depcon/depcon/testdata/runtime/objects/closer"
)

// WaterMark tracks the highest mark done.
type WaterMark struct {
	mu        sync.Mutex
	c         *closer.Closer
	doneUntil int
}

// Init registers the WaterMark with c. It must be called before using
// the WaterMark.
func (w *WaterMark) Init(c *closer.Closer) {
	c.Add(1)
	w.c = c
}

// Done marks m done.
func (w *WaterMark) Done(m int) {
	if w.c == nil {
		panic("watermark: Done before Init")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if m > w.doneUntil {
		w.doneUntil = m
	}
}

// DoneUntil returns the highest mark done, without the lock.
func (w *WaterMark) DoneUntil() int { return w.doneUntil }
