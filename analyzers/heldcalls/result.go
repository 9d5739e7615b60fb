package heldcalls

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// A Lock is a lock held at a call.
type Lock struct {
	Lock, Class string
	Mode        lockstate.Mode
	Pos         token.Pos
	Where       string
}

// An Event is a lock acquisition by the target of a call made while the
// calling function holds a lock.
type Event struct {
	Fn   *ssa.Function // the function holding Held
	Pos  token.Pos     // the call in Fn through which the acquisition happens
	Held Lock          // a lock Fn holds at that call
	// Acq is the target's acquisition; its Lock is mapped onto Fn's
	// locations, "" when it cannot be (a lock reached through a value
	// that the call does not pass).
	Acq    summary.Acquire
	Target *ssa.Function
	// Recursive is set for a recursive call; otherwise the call goes
	// through a function value or an interface.
	Recursive bool
	// Unnamed is set for a lock reached through a value that has no
	// access path (the result of a call): Acq has its class alone, and
	// Target is the function that locks it.
	Unnamed bool
	// Certain is set when the target acquires the lock on every path
	// (the Lock, or the call through which it happens, dominates the
	// target's returns).
	Certain bool
}

// Result lists the events of the package.
type Result struct {
	Events []Event
	// Failures name the functions whose analysis failed on a construct
	// it does not handle, with the reason: their events are missing, and
	// the diagnostics built on them may be too.
	Failures []string
}

// Reentry reports whether the event re-acquires a lock the caller holds
// (the caller's lock or one it may alias: the Classify rules decide how)
// in a way the diagnostics and the plan trust: the acquired lock is
// named in the caller's frame, at a known call; a field lock is not one
// of another type's (the call graph over-approximates the targets); a
// recursive call takes the lock on every path (otherwise a flag may say
// it is held).
func (ev Event) Reentry() bool {
	h, a := ev.Held, ev.Acq
	if a.Lock == "" || !ev.Pos.IsValid() {
		return false
	}
	if fieldClass(a.Class) && fieldClass(h.Class) && a.Class != h.Class {
		return false
	}
	return !ev.Recursive || ev.Certain
}

// Order reports whether the event establishes a lock order (the held
// lock's class, then the acquired one's): two different known classes,
// through a function value or an interface (a recursive call orders a
// lock with itself).
func (ev Event) Order() bool {
	return !ev.Recursive && ev.Held.Class != ev.Acq.Class && ev.Held.Class != "" && ev.Acq.Class != ""
}

// How says how the event's call reaches its target, for a message: "a
// recursive call", "called through an interface", "called through a
// function value".
func (ev Event) How() string {
	switch {
	case ev.Recursive:
		return "a recursive call"
	case ev.Target != nil && ev.Target.Signature.Recv() != nil && ev.Target.Synthetic == "":
		return "called through an interface"
	}
	return "called through a function value"
}

// fieldClass reports whether a lock class names a field ("pkg.T.mu"),
// rather than the type of a lock handed over by pointer ("sync.Mutex").
func fieldClass(class string) bool {
	switch class {
	case "", "sync.Mutex", "sync.RWMutex", "sync.Locker":
		return false
	}
	return true
}
