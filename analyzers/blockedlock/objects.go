package blockedlock

// The stores, loads and addresses of the package's channels, WaitGroups
// and Conds decide which of them are followed: checker.taint marks those
// used in ways the analysis does not follow, checker.buffer the channels
// made with a buffer, and checker.condL the lock of each Cond.

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/lockflow"
)

// checkLoad taints a channel loaded from a field and used other than by
// channel operations: it may be operated on elsewhere.
func (c *checker) checkLoad(n *lockflow.Flow, load *ssa.UnOp) {
	if lockstate.TypeClass(load.Type()) == "sync.Cond" {
		if _, ok := load.Type().Underlying().(*types.Pointer); ok {
			obj, _ := c.condObj(n, load)
			c.onlySyncCalls(obj, load)
		}
		return
	}
	if _, ok := load.Type().Underlying().(*types.Chan); !ok {
		return
	}
	obj, _ := c.chanObj(n, load)
	if obj == "" {
		return
	}
	for _, r := range *load.Referrers() {
		switch r := r.(type) {
		case *ssa.Send, *ssa.Select, *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				c.taint[obj] = true
			}
		case *ssa.BinOp:
		case ssa.CallInstruction:
			// close, len and cap, also deferred (defer close(done)).
			if b, ok := r.Common().Value.(*ssa.Builtin); !ok || (b.Name() != "close" && b.Name() != "len" && b.Name() != "cap") {
				c.taint[obj] = true
			}
		default:
			c.taint[obj] = true
		}
	}
}

// checkStore records the channels made for a field: a buffer (or a
// channel from elsewhere) makes the field's operations not followed.
func (c *checker) checkStore(n *lockflow.Flow, st *ssa.Store) {
	if lockstate.TypeClass(st.Val.Type()) == "sync.Cond" {
		c.checkCond(n, st)
		return
	}
	if sl, ok := st.Val.Type().Underlying().(*types.Slice); ok {
		if _, ok := sl.Elem().Underlying().(*types.Chan); ok {
			c.checkChanSlice(n, st)
		}
		return
	}
	if _, ok := st.Val.Type().Underlying().(*types.Chan); !ok {
		return
	}
	p, ok := n.Name(st.Addr)
	if !ok || p.Class == "" {
		return
	}
	c.madeChan(p.Class+" "+types.TypeString(st.Val.Type(), nil), st.Val)
}

// madeChan records what a channel value stored in the class obj says of
// the class's channels: one made with a buffer, or one from elsewhere
// (a parameter, a call's result), whose size is unknown.
func (c *checker) madeChan(obj string, v ssa.Value) {
	switch v := v.(type) {
	case *ssa.MakeChan:
		if k, ok := v.Size.(*ssa.Const); !ok || k.Int64() != 0 {
			c.buffer[obj] = true
		}
	case *ssa.Const:
	default:
		c.taint[obj] = true
	}
}

// checkChanSlice records the channels a store of a slice of channels
// puts in its location's elements: those appended one by one
// (append(s, ch)), each as madeChan says. A store of the location's own
// elements again (s[:0], s[1:], append(s[:i], s[i+1:]...)) or of nil
// adds none; any other slice brings channels from elsewhere.
func (c *checker) checkChanSlice(n *lockflow.Flow, st *ssa.Store) {
	p, ok := n.Name(st.Addr)
	if !ok || p.Class == "" {
		return
	}
	elem := st.Val.Type().Underlying().(*types.Slice).Elem()
	obj := p.Class + "->[*] " + types.TypeString(elem, nil) // as chanObj names an element
	// own reports whether v holds none but the location's channels.
	own := func(v ssa.Value) bool {
		if s, ok := v.(*ssa.Slice); ok {
			v = s.X
		}
		switch v := v.(type) {
		case *ssa.Const:
			return true
		case *ssa.UnOp:
			q, ok := n.Name(v.X)
			return ok && v.Op == token.MUL && q.Class == p.Class
		}
		return false
	}
	if own(st.Val) {
		return
	}
	if call, ok := st.Val.(*ssa.Call); ok {
		if b, ok := call.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(call.Call.Args) == 2 && own(call.Call.Args[0]) {
			if own(call.Call.Args[1]) {
				return
			}
			if added, ok := appended(call.Call.Args[1]); ok {
				for _, ch := range added {
					c.madeChan(obj, ch)
				}
				return
			}
		}
	}
	c.taint[obj] = true
}

// appended returns the values of the variadic arguments of an append
// (append(s, a, b): a slice of a new array whose elements are stored
// once each), or false.
func appended(v ssa.Value) ([]ssa.Value, bool) {
	s, ok := v.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	arr, ok := s.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var vals []ssa.Value
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			if r == s {
				continue
			}
			return nil, false
		}
		for _, rr := range *ia.Referrers() {
			st, ok := rr.(*ssa.Store)
			if !ok || st.Addr != ia {
				return nil, false
			}
			vals = append(vals, st.Val)
		}
	}
	return vals, true
}

// checkCond records the lock of a Cond made by sync.NewCond(&x.mu) and
// stored in a field of the same object.
func (c *checker) checkCond(n *lockflow.Flow, st *ssa.Store) {
	p, ok := n.Name(st.Addr)
	if !ok || p.Class == "" {
		return
	}
	obj := p.Class + " sync.Cond"
	own := ""
	if call, ok := st.Val.(*ssa.Call); ok && len(call.Call.Args) == 1 {
		if fn, ok := call.Call.Value.(*ssa.Function); ok && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync" && fn.Name() == "NewCond" {
			if mi, ok := call.Call.Args[0].(*ssa.MakeInterface); ok {
				if q, ok := n.Name(mi.X); ok && q.Class != "" && container(q) == container(p) {
					own = q.Class
				}
			}
		}
	}
	if prev, ok := c.condL[obj]; ok && prev != own {
		own = ""
	}
	c.condL[obj] = own
}

// checkAddr taints a channel or WaitGroup field whose address is used
// other than to load, store or call a WaitGroup method.
func (c *checker) checkAddr(n *lockflow.Flow, fa *ssa.FieldAddr) {
	t := fa.Type().Underlying().(*types.Pointer).Elem()
	var obj string
	if _, ok := t.Underlying().(*types.Chan); ok {
		p, ok := n.Name(fa)
		if !ok || p.Class == "" {
			return
		}
		obj = p.Class + " " + types.TypeString(t, nil)
	} else if lockstate.TypeClass(t) == "sync.WaitGroup" {
		obj, _ = c.wgObj(n, fa)
	} else if lockstate.TypeClass(t) == "sync.Cond" {
		obj, _ = c.condObj(n, fa)
	}
	if obj == "" {
		return
	}
	for _, r := range *fa.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != fa {
				c.taint[obj] = true
			}
		case *ssa.Call:
			if fn, ok := r.Call.Value.(*ssa.Function); !ok || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync" {
				c.taint[obj] = true
			}
		case *ssa.Defer:
			if fn, ok := r.Call.Value.(*ssa.Function); !ok || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync" {
				c.taint[obj] = true
			}
		default:
			c.taint[obj] = true
		}
	}
}

// onlySyncCalls taints obj unless v is only the receiver of calls of
// sync methods.
func (c *checker) onlySyncCalls(obj string, v ssa.Value) {
	if obj == "" {
		return
	}
	for _, r := range *v.Referrers() {
		var call *ssa.CallCommon
		switch r := r.(type) {
		case *ssa.Call:
			call = &r.Call
		case *ssa.Defer:
			call = &r.Call
		case *ssa.DebugRef:
			continue
		}
		if call == nil {
			c.taint[obj] = true
			return
		}
		if fn, ok := call.Value.(*ssa.Function); !ok || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync" || len(call.Args) == 0 || call.Args[0] != v {
			c.taint[obj] = true
			return
		}
	}
}
