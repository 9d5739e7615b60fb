package lockstate

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Mode is the mode a lock is held in.
type Mode uint8

const (
	W Mode = iota + 1 // Lock
	R                 // RLock
)

func (m Mode) String() string {
	if m == R {
		return "R"
	}
	return "W"
}

// An OpKind is what a call does to a lock.
type OpKind uint8

const (
	OpNone    OpKind = iota
	OpLock           // Lock, RLock
	OpUnlock         // Unlock, RUnlock
	OpTryLock        // TryLock, TryRLock: held when the result is true
)

// A LockOp is a lock operation: its kind, the lock (the *sync.Mutex, the
// *sync.RWMutex or the interface value the call is made on) and the mode.
type LockOp struct {
	Kind OpKind
	Lock ssa.Value
	Mode Mode
}

// LockCall tells what the call c does to a lock. It is the one rule every
// analyzer applies: a method of sync.Mutex or sync.RWMutex (Lock, RLock,
// Unlock, RUnlock, TryLock, TryRLock), or Lock, RLock, Unlock or RUnlock
// without parameters or results called through an interface (a
// sync.Locker, or any interface with those methods). Anything else is
// OpNone, RLocker and the sync.Cond methods included.
func LockCall(c *ssa.CallCommon) LockOp {
	if c.IsInvoke() {
		sig := c.Signature()
		if sig.Params().Len() != 0 || sig.Results().Len() != 0 {
			return LockOp{}
		}
		return lockOp(c.Method.Name(), c.Value, false)
	}
	fn, ok := c.Value.(*ssa.Function)
	if !ok || len(c.Args) == 0 {
		return LockOp{}
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return LockOp{}
	}
	recv := obj.Signature().Recv()
	if recv == nil {
		return LockOp{}
	}
	switch TypeClass(recv.Type()) {
	case "sync.Mutex", "sync.RWMutex":
		return lockOp(obj.Name(), c.Args[0], true)
	}
	return LockOp{}
}

func lockOp(name string, lock ssa.Value, try bool) LockOp {
	switch name {
	case "Lock":
		return LockOp{OpLock, lock, W}
	case "RLock":
		return LockOp{OpLock, lock, R}
	case "Unlock":
		return LockOp{OpUnlock, lock, W}
	case "RUnlock":
		return LockOp{OpUnlock, lock, R}
	case "TryLock":
		if try {
			return LockOp{OpTryLock, lock, W}
		}
	case "TryRLock":
		if try {
			return LockOp{OpTryLock, lock, R}
		}
	}
	return LockOp{}
}

// SyncMethod returns the full name ("(*sync.Mutex).Lock") of fn when it is
// a function or method of sync or sync/atomic, "" otherwise: the calls the
// analyzers model rather than follow.
func SyncMethod(fn *ssa.Function) string {
	if fn == nil {
		return ""
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return ""
	}
	switch obj.Pkg().Path() {
	case "sync", "sync/atomic":
		return obj.FullName()
	}
	return ""
}

// UnnamedKey returns the name under which a lock without an access path
// is held in its function ("?t3.mu": the field of an SSA value), and its
// class; "" when the lock is not a field of a struct (see
// summary.Result.CallHeld).
func UnnamedKey(v ssa.Value) (key, class string) {
	fa, ok := v.(*ssa.FieldAddr)
	if !ok {
		return "", ""
	}
	name, class := FieldOf(fa.X.Type(), fa.Field)
	if class == "" {
		return "", ""
	}
	x := fa.X
	if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
		if cell, ok := u.X.(*ssa.Alloc); ok {
			x = cell // a variable captured by a closure, loaded at each use
		}
	}
	return "?" + x.Name() + "." + name, class
}

// IsUnnamed reports whether a lock named by UnnamedKey has no access
// path.
func IsUnnamed(lock string) bool { return strings.HasPrefix(lock, "?") }
