package lockleak

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// opKind is what a call does to a lock.
type opKind int

const (
	opNone    opKind = iota
	opLock           // Lock, RLock
	opUnlock         // Unlock, RUnlock
	opTryLock        // TryLock, TryRLock: held when the result is true
)

// lockCall recognizes a call of a sync.Mutex or sync.RWMutex method, or
// of Lock/Unlock through a sync.Locker, and returns the operation, the
// lock value and whether it is a read (shared) operation.
func lockCall(c *ssa.CallCommon) (op opKind, lock ssa.Value, read bool) {
	if c.IsInvoke() {
		if !isSyncType(c.Value.Type(), "Locker") {
			return opNone, nil, false
		}
		switch c.Method.Name() {
		case "Lock":
			return opLock, c.Value, false
		case "Unlock":
			return opUnlock, c.Value, false
		}
		return opNone, nil, false
	}
	fn, ok := c.Value.(*ssa.Function)
	if !ok || len(c.Args) == 0 {
		return opNone, nil, false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return opNone, nil, false
	}
	recv := obj.Signature().Recv()
	if recv == nil {
		return opNone, nil, false
	}
	if !isSyncType(recv.Type(), "Mutex") && !isSyncType(recv.Type(), "RWMutex") {
		return opNone, nil, false
	}
	switch obj.Name() {
	case "Lock":
		return opLock, c.Args[0], false
	case "RLock":
		return opLock, c.Args[0], true
	case "Unlock":
		return opUnlock, c.Args[0], false
	case "RUnlock":
		return opUnlock, c.Args[0], true
	case "TryLock":
		return opTryLock, c.Args[0], false
	case "TryRLock":
		return opTryLock, c.Args[0], true
	}
	return opNone, nil, false
}

// isSyncType reports whether t (or what it points to) is sync.name.
func isSyncType(t types.Type, name string) bool {
	n, ok := types.Unalias(deref(t)).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == name
}

// IsSyncType reports whether t, or the type it points to, is the type
// sync.name.
func IsSyncType(t types.Type, name string) bool { return isSyncType(t, name) }

// staticCallee returns the function a call statically calls, with the
// values bound to its free variables (a closure called where it is made).
func staticCallee(c *ssa.CallCommon) (*ssa.Function, []ssa.Value) {
	if c.IsInvoke() {
		return nil, nil
	}
	switch v := c.Value.(type) {
	case *ssa.Function:
		return v, nil
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			return fn, v.Bindings
		}
	}
	return nil, nil
}
