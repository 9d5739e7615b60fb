package lockstate

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Channels used as mutexes.
//
// A channel with a buffer of one element is a mutex when a send takes it
// and a receive gives it back:
//
//	type DB struct {
//		writeLockC chan struct{} // make(chan struct{}, 1)
//		seq        uint64
//	}
//
//	func (db *DB) Write(b *Batch) {
//		db.writeLockC <- struct{}{} // Lock
//		db.seq += uint64(b.Len())
//		<-db.writeLockC // Unlock
//	}
//
// A field of a struct type of the package is such a lock when every
// channel the package's code stores in it is made with a buffer of
// exactly one element, the package sends on it in a statement that blocks
// (a send, or a select without a default case) and receives from it, never
// closes it, never receives from it with the comma-ok form (a closed
// channel, a stream) nor in a select (a wake-up channel, sent on without
// blocking and received among other cases in a loop, is no lock), and
// never sends on a channel it has just made (a token channel, filled
// first, is taken by a receive: its direction is the other one). The
// Engine, given these classes, takes a send on it as Lock and a receive
// from it as Unlock: accesses under it are guarded, and a function that
// receives from it without sending releases its caller's lock (a helper
// that unlocks for its caller). In a select, the case that sends
// acquires it on the branch that runs that case; a select with a default
// case acquires it as TryLock does.
//
// The lock is the field, not the channel it holds: "$0.lockC", as
// "$0.mu" names a mutex (ChanLockPaths, ExactChanLock).

// FindChanLocks returns the classes of the channel fields that funcs use
// as mutexes (nil when none).
func FindChanLocks(funcs []*ssa.Function) map[string]bool {
	type use struct{ one, other, send, recv, bad bool }
	uses := map[string]*use{}
	get := func(class string) *use {
		u := uses[class]
		if u == nil {
			u = &use{}
			uses[class] = u
		}
		return u
	}
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		for _, anon := range fn.AnonFuncs {
			visit(anon)
		}
		// A token channel is sent on by the function that makes it,
		// before it is stored or through its field.
		made := map[string]bool{}           // fields fn stores a new channel in
		sent := map[string]bool{}           // fields fn sends on
		sentNew := map[*ssa.MakeChan]bool{} // channels fn made and sent on
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.Store:
					mk, ok := in.Val.(*ssa.MakeChan)
					class := fieldClass(in.Addr)
					if !ok || class == "" {
						continue
					}
					made[class] = true
					if c, ok := mk.Size.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Int &&
						constant.Compare(c.Value, token.EQL, constant.MakeInt64(1)) {
						get(class).one = true
					} else {
						get(class).other = true
					}
				case *ssa.Send:
					if mk, ok := in.Chan.(*ssa.MakeChan); ok {
						sentNew[mk] = true // a channel just made: not a field's (yet)
					} else if class := loadedField(in.Chan); class != "" {
						get(class).send = true
						sent[class] = true
					}
				case *ssa.UnOp:
					if in.Op != token.ARROW {
						continue
					}
					if class := loadedField(in.X); class != "" {
						u := get(class)
						u.recv = true
						u.bad = u.bad || in.CommaOk
					}
				case *ssa.Select:
					for _, s := range in.States {
						class := loadedField(s.Chan)
						if class == "" {
							continue
						}
						if s.Dir != types.SendOnly {
							// A wake-up or a stream, received among other
							// cases: a mutex is given back by a receive of
							// its own.
							get(class).bad = true
						} else if in.Blocking {
							get(class).send = true
						}
					}
				case *ssa.Call:
					if bi, ok := in.Call.Value.(*ssa.Builtin); ok && bi.Name() == "close" && len(in.Call.Args) == 1 {
						if class := loadedField(in.Call.Args[0]); class != "" {
							get(class).bad = true
						}
					}
				}
			}
		}
		for mk := range sentNew {
			for _, ref := range *mk.Referrers() {
				if st, ok := ref.(*ssa.Store); ok && st.Val == ssa.Value(mk) {
					if class := fieldClass(st.Addr); class != "" {
						get(class).bad = true
					}
				}
			}
		}
		for class := range made {
			if sent[class] {
				get(class).bad = true
			}
		}
	}
	for _, fn := range funcs {
		visit(fn)
	}
	var out map[string]bool
	for class, u := range uses {
		if u.one && !u.other && u.send && u.recv && !u.bad {
			if out == nil {
				out = map[string]bool{}
			}
			out[class] = true
		}
	}
	return out
}

// fieldClass returns the class of the struct field addr is the address
// of, or "".
func fieldClass(addr ssa.Value) string {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return ""
	}
	_, class := FieldOf(fa.X.Type(), fa.Field)
	return class
}

// loadedField returns the class of the struct field v is loaded from, or
// "".
func loadedField(v ssa.Value) string {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		return fieldClass(load.X)
	}
	return ""
}

// ChanLockPaths returns the paths among ps, those of a channel value
// under the summaries' policy (Namer.Paths), of the channels used as
// mutexes, as paths of the locks: the fields ("$0.lockC"), not the
// channels they refer to.
func ChanLockPaths(chanLocks map[string]bool, ps []Path) []Path {
	var locks []Path
	for _, p := range ps {
		if chanLocks[p.Class] {
			p.Loaded = false
			locks = append(locks, p)
		}
	}
	return locks
}

// ExactChanLock returns the path under the exact policy (Namer.Exact) of
// the lock that the channel value v is when it is loaded from a field
// used as a mutex (a class of chanLocks): the field, as for
// ChanLockPaths; false otherwise.
func ExactChanLock(n *Namer, chanLocks map[string]bool, v ssa.Value) (ExactPath, bool) {
	var field ssa.Value // the field's address, or the field of a struct value
	class := ""
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			field, class = v.X, fieldClass(v.X)
		}
	case *ssa.Field:
		_, class = FieldOf(v.X.Type(), v.Field)
		field = v
	}
	if class == "" || !chanLocks[class] {
		return ExactPath{}, false
	}
	return n.Exact(field)
}
