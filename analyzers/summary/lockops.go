package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

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
	switch lockstate.TypeClass(recv.Type()) {
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
