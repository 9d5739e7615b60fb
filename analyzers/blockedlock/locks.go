package blockedlock

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/lockflow"
)

// entryLocks returns the locks (by class) that every caller of fn holds
// or has acquired when it calls fn: none for a function that other
// packages, goroutines or function values may call.
func (c *checker) entryLocks(fn *ssa.Function) map[string]lockflow.Lock {
	if e, ok := c.entry[fn]; ok {
		return e
	}
	if c.busy[fn] {
		return nil
	}
	c.busy[fn] = true
	defer delete(c.busy, fn)
	var res map[string]lockflow.Lock
	calls := c.calls[fn]
	open := c.refd[fn] || len(calls) == 0
	if obj, ok := fn.Object().(*types.Func); ok {
		if obj.Exported() || obj.Signature().Recv() != nil && c.names[obj.Name()] {
			open = true
		}
	} else if fn.Parent() == nil {
		open = true
	}
	if !open {
		for i, call := range calls {
			here := map[string]lockflow.Lock{}
			for cls, l := range c.locksAt(call.Parent(), call) {
				if p, ok := c.translate(l.Path, call, fn); ok {
					l.Path = p
					here[cls] = l
				}
			}
			if i == 0 {
				res = here
				continue
			}
			for cls, l := range res {
				m, ok := here[cls]
				if !ok {
					delete(res, cls)
					continue
				}
				if !m.Held {
					l.Held = false
					res[cls] = l
				}
			}
		}
	}
	if res == nil {
		res = map[string]lockflow.Lock{}
	}
	c.entry[fn] = res
	return res
}

// translate names a lock of a caller, at a call of fn, in fn's terms:
// through the parameter or free variable it is reached from
// (lockstate.Frame.InCallee).
func (c *checker) translate(p lockstate.ExactPath, call *ssa.Call, fn *ssa.Function) (lockstate.ExactPath, bool) {
	flow := c.prog.Flow(call.Parent())
	if flow == nil {
		return lockstate.ExactPath{}, false
	}
	var bindings []ssa.Value
	if mc, ok := call.Call.Value.(*ssa.MakeClosure); ok {
		bindings = mc.Bindings
	}
	return flow.InCallee(p, fn, call.Call.Args, bindings)
}

// container returns the object a field path selects from.
func container(p lockstate.ExactPath) string {
	k := strings.TrimSuffix(p.Key(), "->")
	i := strings.LastIndexByte(k, '.')
	if i < len(p.Root) {
		return ""
	}
	return k[:i]
}

// sameObject reports whether a lock and a channel (or WaitGroup) are
// fields of the same object, or the lock is a package variable: then a
// lock class and a channel class name one lock for the channel.
func sameObject(lock, loc lockstate.ExactPath) bool {
	if lock.Global() {
		return true
	}
	c := container(lock)
	return c != "" && c == container(loc)
}

// locksAt returns the locks, by class, held or acquired on every path
// to instr, including those of every caller of its function.
func (c *checker) locksAt(fn *ssa.Function, instr ssa.Instruction) map[string]lockflow.Lock {
	out := map[string]lockflow.Lock{}
	for cls, l := range c.entryLocks(fn) {
		out[cls] = l
	}
	flow := c.prog.Flow(fn)
	if flow == nil {
		return out
	}
	for _, l := range flow.Under(instr) {
		if l.Path.Class == "" || l.Path.Weak {
			continue
		}
		if o, ok := out[l.Path.Class]; !ok || l.Held && !o.Held {
			out[l.Path.Class] = l
		}
	}
	return out
}

// under returns the lock of class cls at a site if every path to it has
// acquired it.
func (c *checker) under(s *site, cls string) (lockflow.Lock, bool) {
	points := []ssa.Instruction{s.at}
	if s.exits != nil {
		points = s.exits
	}
	if len(points) == 0 {
		return lockflow.Lock{}, false
	}
	var res lockflow.Lock
	for i, p := range points {
		l, ok := c.locksAt(s.fn, p)[cls]
		if !ok {
			return lockflow.Lock{}, false
		}
		if i == 0 || !l.Held {
			res = l
		}
	}
	return res, true
}

// after returns the lock of class cls when the site is reached again
// after acquiring it, in a loop: the end of some block of its function
// has acquired the lock on every path (held or released since, directly
// or through a call), and that block and the site's are on one cycle (a
// loop that receives, and whose body locks before it comes back), or
// the block follows the site in a function called in a loop (receive,
// then lock, and be called again). The goroutine running the loop may
// then be waiting for the lock rather than at the site, whatever its
// callers pass; a branch that locks only for some arguments is not
// followed. A deferred operation (at the function's exits) is checked by
// beforeExit.
func (c *checker) after(s *site, cls string) (lockflow.Lock, bool) {
	if s.exits != nil {
		return c.beforeExit(s, cls)
	}
	if s.at == nil || s.at.Block() == nil {
		return lockflow.Lock{}, false
	}
	target := s.at.Block()
	repeated := c.repeated(s.fn, 0)
	_, before := c.locksAt(s.fn, s.at)[cls]
	for _, b := range s.fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		cycle := lockstate.Reaches(b, target) && (lockstate.Reaches(target, b) || b == target)
		// After the operation, in a function its goroutine runs again
		// (called in a loop): the lock is taken before the next time.
		later := repeated && (b != target && lockstate.Reaches(target, b) || b == target && !before)
		if !cycle && !later {
			continue
		}
		l, ok := c.locksAt(s.fn, b.Instrs[len(b.Instrs)-1])[cls]
		if ok && l.Path.Class == cls {
			return l, true
		}
	}
	return lockflow.Lock{}, false
}

// beforeExit returns the lock of class cls when a deferred operation is
// reached only after a loop whose body acquires it (defer close(done);
// for x := range c { s.mu.Lock() … }): the goroutine may be waiting for
// the lock in the loop rather than at its exit.
func (c *checker) beforeExit(s *site, cls string) (lockflow.Lock, bool) {
	for _, b := range s.fn.Blocks {
		if len(b.Instrs) == 0 || !lockstate.Reaches(b, b) {
			continue
		}
		exits := false
		for _, x := range s.exits {
			exits = exits || x.Block() != nil && lockstate.Reaches(b, x.Block())
		}
		if !exits {
			continue
		}
		l, ok := c.locksAt(s.fn, b.Instrs[len(b.Instrs)-1])[cls]
		if ok && l.Path.Class == cls {
			return l, true
		}
	}
	return lockflow.Lock{}, false
}

// repeated reports whether fn runs again and again in its goroutine: it
// is called from a loop, directly or through at most two more callers,
// all of them in the package, and is used no other way.
func (c *checker) repeated(fn *ssa.Function, depth int) bool {
	if depth > 2 || c.refd[fn] {
		return false
	}
	for _, call := range c.calls[fn] {
		if b := call.Block(); lockstate.Reaches(b, b) || c.repeated(call.Parent(), depth+1) {
			return true
		}
	}
	return false
}
