package blockedlock

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/lockflow"
)

// A localChan is an unbuffered channel (or a sync.WaitGroup) made in a
// function and handed only to goroutines it starts (as an argument or a
// captured variable), and maybe returned to the function's callers: its
// operations are those of the function, of those goroutines and of the
// callers, and a lock one of them needs is named in the function's terms
// through the go statement or the call.
type localChan struct {
	fn     *ssa.Function
	starts map[*ssa.Function]*ssa.Go // the goroutines' functions and their go statements
	// result is the index of the result fn returns the channel as (-1:
	// not returned); the callers' operations on it are followed too.
	result int
	name   string
}

func newLocal(fn *ssa.Function, name string) *localChan {
	return &localChan{fn: fn, starts: map[*ssa.Function]*ssa.Go{}, result: -1, name: name}
}

// scanLocal records the operations on the channel that mc makes, when it
// is unbuffered and used only by channel operations of fn and of
// goroutines fn hands it to (and returned: see scanReturned); a channel
// used any other way (stored, passed to a call) is not followed.
func (c *checker) scanLocal(fn *ssa.Function, mc *ssa.MakeChan) {
	if size, ok := mc.Size.(*ssa.Const); !ok || size.Value == nil || size.Value.Kind() != constant.Int ||
		size.Int64() != 0 || !mc.Pos().IsValid() {
		return
	}
	obj := fmt.Sprintf("local %d %s", mc.Pos(), types.TypeString(mc.Type(), nil))
	lc := newLocal(fn, c.localName(mc.Pos()))
	var sites []*site
	ok := c.chanUses(fn, mc, lc.name, obj, lc, &sites)
	if !ok || len(lc.starts) == 0 {
		return
	}
	if c.locals == nil {
		c.locals = map[string]*localChan{}
	}
	c.locals[obj] = lc
	c.sites = append(c.sites, sites...)
}

// chanUses collects into sites the operations of fn on the channel v
// (obj, shown as name), following it into the goroutines fn starts with
// it when lc is set (in fn's own body); it reports false when v is used
// any other way.
func (c *checker) chanUses(fn *ssa.Function, v ssa.Value, name, obj string, lc *localChan, sites *[]*site) bool {
	loc := lockstate.ExactPath{Display: name}
	add := func(k kind, pos token.Pos, at ssa.Instruction, sel *ssa.Select) {
		*sites = append(*sites, &site{fn: fn, kind: k, obj: obj, loc: loc, pos: pos, at: at, sel: sel})
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.ChangeType:
			if !c.chanUses(fn, r, name, obj, lc, sites) {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return false
			}
			add(recv, r.Pos(), r, nil)
		case *ssa.Send:
			if r.X == v {
				return false // the channel sent on another channel
			}
			add(send, r.Pos(), r, nil)
		case *ssa.Select:
			for _, st := range r.States {
				if st.Chan != v {
					continue
				}
				if st.Dir == types.SendOnly && st.Send == v {
					return false
				}
				k := recv
				if st.Dir == types.SendOnly {
					k = send
				}
				add(k, st.Pos, r, r)
			}
		case *ssa.Call:
			if !isClose(r.Common(), v) {
				return false
			}
			add(closeOp, r.Pos(), r, nil)
		case *ssa.Defer:
			if !isClose(r.Common(), v) {
				return false
			}
			*sites = append(*sites, &site{fn: fn, kind: closeOp, obj: obj, loc: loc, pos: r.Pos(), exits: c.exitsOf(fn)})
		case *ssa.Go, *ssa.MakeClosure:
			if !c.intoGoroutine(r, v, lc, func(g *ssa.Function, x ssa.Value, name string) bool {
				return c.chanUses(g, x, name, obj, nil, sites)
			}) {
				return false
			}
		case *ssa.Return:
			// Returned: the callers' operations are followed once every
			// function is scanned (see scanReturned).
			i := -1
			for j, x := range r.Results {
				if x == v {
					i = j
				}
			}
			if lc == nil || i < 0 || lc.result >= 0 && lc.result != i {
				return false
			}
			lc.result = i
		case *ssa.Store:
			// The variable a closure captures: a cell, stored once and
			// loaded.
			cell, ok := r.Addr.(*ssa.Alloc)
			if r.Val != v || !ok || !c.cellUses(fn, cell, r, name, obj, lc, sites) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// cellUses follows the channel stored (by store) in cell, a variable
// of fn that closures capture: its loads are the channel.
func (c *checker) cellUses(fn *ssa.Function, cell ssa.Value, store *ssa.Store, name, obj string, lc *localChan,
	sites *[]*site) bool {
	refs := cell.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r != store {
				return false // assigned again
			}
		case *ssa.UnOp:
			if r.Op != token.MUL || !c.chanUses(fn, r, name, obj, lc, sites) {
				return false
			}
		case *ssa.MakeClosure:
			if !c.closureUses(r, cell, lc, func(g *ssa.Function, x ssa.Value, name string) bool {
				return c.cellUses(g, x, nil, name, obj, nil, sites)
			}) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// intoGoroutine follows v into the goroutine that r starts with it: r is
// a go statement, or a closure a go statement runs, in the function that
// made v (lc set); follow follows it there.
func (c *checker) intoGoroutine(r ssa.Instruction, v ssa.Value, lc *localChan,
	follow func(*ssa.Function, ssa.Value, string) bool) bool {
	switch r := r.(type) {
	case *ssa.Go:
		g, _ := r.Call.Value.(*ssa.Function)
		return lc != nil && g != nil && startedWith(g, r, r.Call.Args, g.Params, v, lc,
			func(x ssa.Value, name string) bool { return follow(g, x, name) })
	case *ssa.MakeClosure:
		return c.closureUses(r, v, lc, follow)
	}
	return false
}

// exitsOf returns the returns of fn, where its deferred calls run.
func (c *checker) exitsOf(fn *ssa.Function) []ssa.Instruction {
	exits := []ssa.Instruction{}
	if flow := c.prog.Flow(fn); flow != nil {
		for _, r := range flow.Returns() {
			exits = append(exits, r)
		}
	}
	return exits
}

// closureUses follows v, bound by the closure mc, into the goroutine
// that runs it: mc must be started by a go statement and used no other
// way, in the function that made the channel (lc set).
func (c *checker) closureUses(mc *ssa.MakeClosure, v ssa.Value, lc *localChan, follow func(*ssa.Function, ssa.Value, string) bool) bool {
	g, _ := mc.Fn.(*ssa.Function)
	gos := mc.Referrers()
	if lc == nil || g == nil || gos == nil || len(*gos) != 1 {
		return false
	}
	start, ok := (*gos)[0].(*ssa.Go)
	return ok && start.Call.Value == mc && startedWith(g, start, mc.Bindings, g.FreeVars, v, lc,
		func(x ssa.Value, name string) bool { return follow(g, x, name) })
}

// startedWith follows the channel v into g, started by the go statement
// start, which hands it over as vals[i], the value of g's vars[i]
// (follow follows it there).
func startedWith[V ssa.Value](g *ssa.Function, start *ssa.Go, vals []ssa.Value, vars []V, v ssa.Value,
	lc *localChan, follow func(ssa.Value, string) bool) bool {
	if prev, ok := lc.starts[g]; ok && prev != start || g.Blocks == nil {
		return false // one function started twice: its locks are not named once
	}
	lc.starts[g] = start
	found := false
	for i, x := range vals {
		if x != v {
			continue
		}
		if i >= len(vars) {
			return false
		}
		found = true
		if !follow(vars[i], vars[i].Name()) {
			return false
		}
	}
	return found
}

func isClose(call *ssa.CallCommon, v ssa.Value) bool {
	b, ok := call.Value.(*ssa.Builtin)
	return ok && b.Name() == "close" && len(call.Args) == 1 && call.Args[0] == v
}

// localName returns the name of the variable a channel made at pos is
// assigned to (done := make(chan struct{})), or "the channel made at
// file:line".
func (c *checker) localName(pos token.Pos) string {
	for _, f := range c.pass.Files {
		if pos < f.Pos() || pos >= f.End() {
			continue
		}
		name := ""
		ast.Inspect(f, func(n ast.Node) bool {
			if name != "" || n == nil || pos < n.Pos() || pos >= n.End() {
				return false
			}
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, rhs := range n.Rhs {
					if id, ok := n.Lhs[min(i, len(n.Lhs)-1)].(*ast.Ident); ok && within(pos, rhs) {
						name = id.Name
					}
				}
			case *ast.ValueSpec:
				for i, rhs := range n.Values {
					if i < len(n.Names) && within(pos, rhs) {
						name = n.Names[i].Name
					}
				}
			}
			return true
		})
		if name != "" && name != "_" {
			return name
		}
	}
	return "the channel made at " + c.short(pos)
}

func within(p token.Pos, n ast.Node) bool { return n != nil && p >= n.Pos() && p < n.End() }

// blockedLocal is blocked for a local channel: every operation that
// would unblock s runs in another goroutine (the function that made the
// channel, or one it started with it) and needs the lock l, named in the
// maker's terms through the go statement: the very lock, not one of its
// class.
func (c *checker) blockedLocal(s *site, l lockflow.Lock, lc *localChan, others []*site) (finding, bool) {
	held, ok := c.inMaker(l.Path, s, lc)
	if !ok {
		return finding{}, false
	}
	var f finding
	for _, o := range others {
		if o.fn == s.fn {
			return finding{}, false // its own goroutine's operation
		}
		ol, ok := c.under(o, l.Path.Class)
		if !ok {
			return finding{}, false
		}
		if p, ok := c.inMaker(ol.Path, o, lc); !ok || p != held {
			return finding{}, false
		}
		if l.Acq.Read && (!ol.Held || ol.Acq.Read) {
			return finding{}, false
		}
		if f.other == nil || ol.Held && !f.olock.Held {
			f = finding{lock: l, other: o, olock: ol}
		}
	}
	return f, f.other != nil
}

// inMaker names a lock of fn (the function that made the channel of lc,
// or a goroutine it started) by its key in the maker's terms. A
// goroutine's lock is named through its go statement (lockstate.Frame):
// the values it passes and the variables its closure captures, a
// captured variable through the value stored in its cell, unless the
// goroutine assigns it.
func (c *checker) inMaker(p lockstate.ExactPath, s *site, lc *localChan) (string, bool) {
	fn := s.fn
	if p.Weak {
		return "", false
	}
	if s.via != nil {
		// A caller's lock, named in the maker's terms through the call.
		q, ok := c.translate(p, s.via, lc.fn)
		if !ok || q.Weak {
			return "", false
		}
		return q.Key(), true
	}
	if p.Global() || fn == lc.fn && !p.Local() {
		return p.Key(), true
	}
	maker := c.prog.Flow(lc.fn)
	if maker == nil {
		return "", false
	}
	if fn == lc.fn {
		// A value of the maker's own: only the cell of a parameter
		// that closures capture, named as the parameter.
		var x *ssa.Parameter
		if len(p.Values) > 0 {
			x = lockstate.CapturedParam(p.Values[0])
		}
		rest, ok := strings.CutPrefix(p.Rest, "->")
		if x == nil || !ok {
			return "", false
		}
		a, ok := maker.Name(x)
		if !ok || a.Weak || a.Local() {
			return "", false
		}
		return a.Key() + rest, true
	}
	start := lc.starts[fn]
	if start == nil || strings.HasPrefix(p.Root, "@") {
		return "", false // a goroutine's lock behind a package variable's reference
	}
	var bindings []ssa.Value
	if mc, ok := start.Call.Value.(*ssa.MakeClosure); ok {
		bindings = mc.Bindings
	}
	if i, ok := strings.CutPrefix(p.Root, "$f"); ok {
		if i := lockstate.ParseIndex(i); bindings == nil || i < 0 || i >= len(fn.FreeVars) || assigned(fn.FreeVars[i]) {
			return "", false
		}
	}
	q, ok := maker.Map(p, start.Call.Args, bindings)
	if !ok || q.Weak || q.Local() {
		return "", false
	}
	return q.Key(), true
}

// assigned reports whether the goroutine stores to a variable it
// captures: the cell then holds another value.
func assigned(fv *ssa.FreeVar) bool {
	for _, r := range *fv.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == fv {
			return true
		}
	}
	return false
}

// scanLocalWG records the Wait and Done calls on a sync.WaitGroup that
// alloc makes, when it is used only by them (and Add with a constant
// positive delta) in fn and in goroutines fn hands it to, as a local
// channel is followed (see scanLocal).
func (c *checker) scanLocalWG(fn *ssa.Function, alloc *ssa.Alloc) {
	if lockstate.TypeClass(alloc.Type().(*types.Pointer).Elem()) != "sync.WaitGroup" || !alloc.Pos().IsValid() {
		return
	}
	obj := fmt.Sprintf("local %d sync.WaitGroup", alloc.Pos())
	name := alloc.Comment
	if name == "" {
		name = "the WaitGroup made at " + c.short(alloc.Pos())
	}
	lc := newLocal(fn, name)
	var sites []*site
	if !c.wgUses(fn, alloc, name, obj, lc, &sites) || len(lc.starts) == 0 {
		return
	}
	if c.locals == nil {
		c.locals = map[string]*localChan{}
	}
	c.locals[obj] = lc
	c.sites = append(c.sites, sites...)
}

// wgUses collects into sites the Wait and Done calls of fn on the
// WaitGroup at v, as chanUses does for a channel.
func (c *checker) wgUses(fn *ssa.Function, v ssa.Value, name, obj string, lc *localChan, sites *[]*site) bool {
	loc := lockstate.ExactPath{Display: name}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			switch wgMethod(r.Common(), v) {
			case "Wait":
				*sites = append(*sites, &site{fn: fn, kind: wait, obj: obj, loc: loc, pos: r.Pos(), at: r})
			case "Done":
				*sites = append(*sites, &site{fn: fn, kind: done, obj: obj, loc: loc, pos: r.Pos(), at: r})
			case "Add":
				if k, ok := r.Call.Args[1].(*ssa.Const); !ok || k.Value == nil || k.Int64() <= 0 {
					return false // Add(-1) is a Done
				}
			default:
				return false
			}
		case *ssa.Defer:
			if wgMethod(r.Common(), v) != "Done" {
				return false
			}
			*sites = append(*sites, &site{fn: fn, kind: done, obj: obj, loc: loc, pos: r.Pos(), exits: c.exitsOf(fn)})
		case *ssa.Go, *ssa.MakeClosure:
			if !c.intoGoroutine(r, v, lc, func(g *ssa.Function, x ssa.Value, name string) bool {
				return c.wgUses(g, x, name, obj, nil, sites)
			}) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// wgMethod returns the name of the sync.WaitGroup method call calls on
// v, or "".
func wgMethod(call *ssa.CallCommon, v ssa.Value) string {
	fn, ok := call.Value.(*ssa.Function)
	if !ok || len(call.Args) == 0 || call.Args[0] != v {
		return ""
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync" || obj.Signature().Recv() == nil ||
		lockstate.TypeClass(obj.Signature().Recv().Type()) != "sync.WaitGroup" {
		return ""
	}
	for _, a := range call.Args[1:] {
		if a == v {
			return ""
		}
	}
	return obj.Name()
}

// scanReturned follows the local channels their makers return into the
// callers: each call's result is a channel of its own, operated on by the
// caller and by the goroutines the maker started. A maker that code
// outside the package, a function value or a goroutine may call is not
// followed.
func (c *checker) scanReturned() {
	for _, obj := range slices.Sorted(maps.Keys(c.locals)) {
		lc := c.locals[obj]
		if lc.result < 0 {
			continue
		}
		if c.refd[lc.fn] || lc.fn.Object() == nil || lc.fn.Object().Exported() {
			delete(c.locals, obj)
			c.taint[obj] = true
			continue
		}
		for _, call := range c.calls[lc.fn] {
			res := ssa.Value(call)
			if lc.fn.Signature.Results().Len() > 1 {
				res = nil
				for _, r := range *call.Referrers() {
					if x, ok := r.(*ssa.Extract); ok && x.Index == lc.result {
						res = x
					}
				}
			}
			if res == nil {
				continue
			}
			var sites []*site
			if !c.chanUses(call.Parent(), res, lc.name, obj, nil, &sites) {
				c.taint[obj] = true
				break
			}
			for _, s := range sites {
				s.via = call
			}
			c.sites = append(c.sites, sites...)
		}
	}
}
