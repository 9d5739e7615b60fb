package blockedlock

import (
	"github.com/depcon/depcon/analyzers/lockflow"
)

// complementary returns the kinds of operation that unblock k.
func complementary(k kind) []kind {
	switch k {
	case send:
		// A close ends a blocked send too (it panics): a close that
		// needs the lock cannot end it either.
		return []kind{recv, closeOp}
	case recv:
		return []kind{send, closeOp}
	case wait:
		return []kind{done}
	case condWait:
		return []kind{signal}
	}
	return nil
}

// finding is a blocking operation that deadlocks with its other side.
type finding struct {
	lock  lockflow.Lock // held by the blocking side
	other *site         // an operation of the other side
	olock lockflow.Lock // the lock there
	// again is set when the other side reaches its operation on some
	// path only, after locking (a loop whose body locks): the goroutine
	// may be waiting for the lock instead of at the operation.
	again bool
}

// blocked returns the finding for a blocking site holding lock l, or
// false when some operation that would unblock it does not need l.
func (c *checker) blocked(s *site, l lockflow.Lock) (finding, bool) {
	if c.taint[s.obj] || c.buffer[s.obj] {
		return finding{}, false
	}
	var others []*site
	for _, k := range complementary(s.kind) {
		for _, o := range c.byObj[s.obj] {
			if o.kind == k {
				others = append(others, o)
			}
		}
	}
	if len(others) == 0 {
		return finding{}, false
	}
	if lc := c.locals[s.obj]; lc != nil {
		return c.blockedLocal(s, l, lc, others)
	}
	if !sameObject(l.Path, s.loc) {
		return finding{}, false
	}
	var f finding
	for _, o := range others {
		if o.fn == s.fn && o.at == s.at {
			return finding{}, false
		}
		ol, ok := c.under(o, l.Path.Class)
		again := false
		if !ok {
			if ol, ok = c.after(o, l.Path.Class); !ok {
				return finding{}, false
			}
			again = true
		}
		if !sameObject(ol.Path, o.loc) {
			return finding{}, false
		}
		if l.Acq.Read && (!ol.Held || ol.Acq.Read) {
			return finding{}, false // read locks do not exclude each other
		}
		if f.other == nil || f.again && !again || ol.Held && !f.olock.Held && f.again == again {
			f = finding{lock: l, other: o, olock: ol, again: again}
		}
	}
	return f, true
}
