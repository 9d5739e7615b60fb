package lockorder

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// orders lists every site of each local order, not only the first that
// the graph keeps, and the orders imported packages establish.
type orders struct {
	res      *summary.Result
	every    map[[2]string][]site
	imported map[[2]string]bool
}

func (o *orders) add(s site) {
	key := [2]string{s.From, s.To}
	o.every[key] = append(o.every[key], s)
}

// apart reports whether two orders that invert each other can never
// overlap on one object: every site of one is a callback that locks an
// object its maker allocated, and every site of the other is taken by
// that maker before it makes the callback, outside any loop. The callback
// runs only once it exists, after the maker's nested acquisitions; a
// callback of an earlier call locks an earlier object.
//
//	w := &watcher{}
//	w.mu.Lock(); defer w.mu.Unlock()
//	s.mu.Lock()                      // watcher.mu → Sub.mu
//	s.done = func() { w.mu.Lock() … } // run by Remove with Sub.mu held
//	s.mu.Unlock()
func (o *orders) apart(a, b *node) bool {
	return o.callbackAfter(a, b) || o.callbackAfter(b, a)
}

// callbackAfter reports whether every site of cb is a callback made, for
// an object of its own, after every site of other in its maker.
func (o *orders) callbackAfter(cb, other *node) bool {
	kc, ko := [2]string{cb.From, cb.To}, [2]string{other.From, other.To}
	if o.imported[kc] || o.imported[ko] || len(o.every[kc]) == 0 || len(o.every[ko]) == 0 {
		return false
	}
	for _, s := range o.every[kc] {
		c := s.target
		if c == nil || c.Parent() == nil {
			return false
		}
		mc := makeClosure(c)
		if mc == nil || lockstate.Reaches(mc.Block(), mc.Block()) || !o.ownObject(c, mc, s.acq.Class) {
			return false
		}
		for _, t := range o.every[ko] {
			if t.f.Fn != c.Parent() || !t.pos.IsValid() || t.pos >= c.Pos() {
				return false
			}
		}
	}
	return true
}

// makeClosure returns the one instruction that makes closure c in its
// parent, or nil.
func makeClosure(c *ssa.Function) *ssa.MakeClosure {
	var out *ssa.MakeClosure
	for _, b := range c.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == c {
				if out != nil {
					return nil
				}
				out = mc
			}
		}
	}
	return out
}

// ownObject reports whether every lock of class cls that closure c
// acquires lies in an object its maker allocated: rooted at a free
// variable bound to a new object, or to a variable only ever assigned
// new objects.
func (o *orders) ownObject(c *ssa.Function, mc *ssa.MakeClosure, cls string) bool {
	sum := o.res.Of(c)
	if sum == nil {
		return false
	}
	found := false
	for _, a := range sum.Acquires {
		if a.Class != cls {
			continue
		}
		root := lockstate.Root(a.Lock)
		k := -1
		if strings.HasPrefix(root, "$f") {
			k = lockstate.ParseIndex(root[2:])
		}
		if k < 0 || k >= len(mc.Bindings) || !fresh(mc.Bindings[k]) {
			return false
		}
		found = true
	}
	return found
}

// fresh reports whether v is an object allocated by the function (&T{},
// new(T), a local variable), or a variable of it that holds only such
// objects.
func fresh(v ssa.Value) bool {
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	ptr, ok := a.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	if _, ok := ptr.Elem().Underlying().(*types.Pointer); !ok {
		return true // the object itself
	}
	stored := false
	for _, r := range *a.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == a {
			if _, ok := st.Val.(*ssa.Alloc); !ok {
				return false
			}
			stored = true
		}
	}
	return stored
}
