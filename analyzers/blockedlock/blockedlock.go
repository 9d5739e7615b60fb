package blockedlock

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/lockflow"
)

//go:embed doc.go
var doc string

// Analyzer reports blocking channel, WaitGroup and Cond operations
// performed while holding a lock that the other side needs to unblock
// them.
var Analyzer = &analysis.Analyzer{
	Name:     "blockedlock",
	Doc:      analysisdoc.MustExtract(doc, "blockedlock"),
	URL:      "https://pkg.go.dev/github.com/depcon/depcon/analyzers/blockedlock",
	Requires: []*analysis.Analyzer{buildssa.Analyzer, lockflow.Analyzer},
	Run:      run,
}

// kind is the operation of a site.
type kind int

const (
	send kind = iota
	recv
	closeOp
	wait
	done
	condWait
	signal
)

func (k kind) String() string {
	return [...]string{"send on", "receive from", "close of", "Wait on", "Done on", "Wait on", "Signal on"}[k]
}

func (k kind) noun() string {
	return [...]string{"send", "receive", "close", "Wait", "Done", "Wait", "Signal or Broadcast"}[k]
}

// A site is a channel or WaitGroup operation.
type site struct {
	fn    *ssa.Function
	kind  kind
	obj   string              // the channel or WaitGroup: its class and type
	loc   lockstate.ExactPath // where the channel or WaitGroup is
	pos   token.Pos
	at    ssa.Instruction   // where the operation happens
	exits []ssa.Instruction // for a deferred operation: the returns
	// via is the call whose result the operation's local channel is,
	// in a caller of the function that made it (see scanReturned).
	via *ssa.Call
	sel *ssa.Select // the select it is a case of, if any
}

type checker struct {
	pass   *analysis.Pass
	prog   *lockflow.Program
	sites  []*site
	byObj  map[string][]*site
	taint  map[string]bool   // objects used in ways not followed
	condL  map[string]string // the class of each Cond's lock ("": unknown)
	buffer map[string]bool   // channels made with a buffer (or unknown size)
	calls  map[*ssa.Function][]*ssa.Call
	refd   map[*ssa.Function]bool // used other than by a direct call
	names  map[string]bool        // method names called through interfaces
	entry  map[*ssa.Function]map[string]lockflow.Lock
	busy   map[*ssa.Function]bool
	locals map[string]*localChan // the local channels followed, by object
}

func run(pass *analysis.Pass) (any, error) {
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	c := &checker{
		pass:   pass,
		prog:   pass.ResultOf[lockflow.Analyzer].(*lockflow.Program),
		byObj:  map[string][]*site{},
		taint:  map[string]bool{},
		condL:  map[string]string{},
		buffer: map[string]bool{},
		calls:  map[*ssa.Function][]*ssa.Call{},
		refd:   map[*ssa.Function]bool{},
		names:  map[string]bool{},
		entry:  map[*ssa.Function]map[string]lockflow.Lock{},
		busy:   map[*ssa.Function]bool{},
	}
	fns := ssainfo.SrcFuncs
	for _, fn := range fns {
		c.scan(fn)
	}
	c.scanReturned()
	for _, s := range c.sites {
		c.byObj[s.obj] = append(c.byObj[s.obj], s)
	}
	c.check()
	return nil, nil
}

// scan collects the operations of fn and what the analysis needs to
// know about the objects and calls.
func (c *checker) scan(fn *ssa.Function) {
	if fn.Synthetic != "" && !strings.HasPrefix(fn.Synthetic, "range-over-func") {
		return
	}
	flow := c.prog.Flow(fn)
	if flow == nil {
		return
	}
	n := flow
	add := func(s *site) {
		if s.obj != "" {
			s.fn = fn
			c.sites = append(c.sites, s)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			for _, op := range instr.Operands(nil) {
				if g, ok := (*op).(*ssa.Function); ok {
					if call, ok := instr.(*ssa.Call); ok && call.Call.Value == g {
						continue
					}
					c.refd[g] = true
				}
			}
			switch instr := instr.(type) {
			case *ssa.Send:
				obj, loc := c.chanObj(n, instr.Chan)
				add(&site{kind: send, obj: obj, loc: loc, pos: instr.Pos(), at: instr})
			case *ssa.UnOp:
				switch instr.Op {
				case token.ARROW:
					obj, loc := c.chanObj(n, instr.X)
					add(&site{kind: recv, obj: obj, loc: loc, pos: instr.Pos(), at: instr})
				case token.MUL:
					c.checkLoad(n, instr)
				}
			case *ssa.Select:
				for _, st := range instr.States {
					obj, loc := c.chanObj(n, st.Chan)
					k := recv
					if st.Dir == types.SendOnly {
						k = send
					}
					add(&site{kind: k, obj: obj, loc: loc, pos: st.Pos, at: instr, sel: instr})
				}
			case *ssa.MakeChan:
				c.scanLocal(fn, instr)
			case *ssa.Alloc:
				c.scanLocalWG(fn, instr)
			case *ssa.Store:
				c.checkStore(n, instr)
			case *ssa.FieldAddr:
				c.checkAddr(n, instr)
			case *ssa.Call:
				if instr.Call.IsInvoke() {
					c.names[instr.Call.Method.Name()] = true
				}
				if g, _ := instr.Call.Value.(*ssa.Function); g != nil {
					c.calls[g] = append(c.calls[g], instr)
				}
				if mc, ok := instr.Call.Value.(*ssa.MakeClosure); ok {
					if g, ok := mc.Fn.(*ssa.Function); ok {
						c.calls[g] = append(c.calls[g], instr)
					}
				}
				if s := c.callSite(n, &instr.Call, instr.Pos()); s != nil {
					s.at = instr
					add(s)
				}
			case *ssa.Defer:
				if s := c.callSite(n, &instr.Call, instr.Pos()); s != nil {
					s.exits = c.exitsOf(fn)
					add(s)
				}
			case *ssa.Go:
				if s := c.callSite(n, &instr.Call, instr.Pos()); s != nil {
					c.taint[s.obj] = true
				}
			case *ssa.MakeClosure:
				if g, ok := instr.Fn.(*ssa.Function); ok {
					for _, r := range *instr.Referrers() {
						if call, ok := r.(*ssa.Call); !ok || call.Call.Value != instr {
							if _, ok := r.(*ssa.DebugRef); !ok {
								c.refd[g] = true
							}
						}
					}
					if g.Synthetic != "" {
						// A bound method value: its method is used
						// other than by a call.
						if obj, ok := g.Object().(*types.Func); ok {
							c.names[obj.Name()] = true
						}
					}
				}
			}
		}
	}
}

// callSite recognizes close(ch), wg.Wait() and wg.Done().
func (c *checker) callSite(n *lockflow.Flow, call *ssa.CallCommon, pos token.Pos) *site {
	if b, ok := call.Value.(*ssa.Builtin); ok && b.Name() == "close" && len(call.Args) == 1 {
		obj, loc := c.chanObj(n, call.Args[0])
		return &site{kind: closeOp, obj: obj, loc: loc, pos: pos}
	}
	fn, ok := call.Value.(*ssa.Function)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync" || obj.Signature().Recv() == nil {
		return nil
	}
	if lockstate.TypeClass(obj.Signature().Recv().Type()) == "sync.Cond" {
		o, loc := c.condObj(n, call.Args[0])
		switch obj.Name() {
		case "Wait":
			return &site{kind: condWait, obj: o, loc: loc, pos: pos}
		case "Signal", "Broadcast":
			return &site{kind: signal, obj: o, loc: loc, pos: pos}
		}
		return nil
	}
	if lockstate.TypeClass(obj.Signature().Recv().Type()) != "sync.WaitGroup" {
		return nil
	}
	o, loc := c.wgObj(n, call.Args[0])
	switch obj.Name() {
	case "Wait":
		return &site{kind: wait, obj: o, loc: loc, pos: pos}
	case "Done":
		return &site{kind: done, obj: o, loc: loc, pos: pos}
	case "Add", "Go":
		// Add(-1) is a Done, and Go calls Done itself: the WaitGroup
		// is not followed.
		if o != "" {
			if k, ok := call.Args[1].(*ssa.Const); obj.Name() == "Go" || ok && k.Int64() < 0 {
				c.taint[o] = true
			}
		}
	}
	return nil
}

// chanObj names the channel a value was loaded from: a field of a type
// or a package variable, with the channel's type.
func (c *checker) chanObj(n *lockflow.Flow, v ssa.Value) (string, lockstate.ExactPath) {
	for {
		ct, ok := v.(*ssa.ChangeType)
		if !ok {
			break
		}
		v = ct.X
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", lockstate.ExactPath{}
	}
	p, ok := n.Name(load.X)
	if !ok || p.Class == "" || p.Local() || p.Weak || exported(p.Class) {
		return "", lockstate.ExactPath{}
	}
	return p.Class + " " + types.TypeString(v.Type(), nil), p
}

func (c *checker) wgObj(n *lockflow.Flow, v ssa.Value) (string, lockstate.ExactPath) {
	p, ok := n.Name(v)
	if !ok || p.Class == "" || p.Local() || p.Weak || exported(p.Class) {
		return "", lockstate.ExactPath{}
	}
	return p.Class + " sync.WaitGroup", p
}

// condObj names a sync.Cond: a field holding it or a pointer to it.
func (c *checker) condObj(n *lockflow.Flow, v ssa.Value) (string, lockstate.ExactPath) {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	p, ok := n.Name(v)
	if !ok || p.Class == "" || p.Local() || p.Weak || exported(p.Class) {
		return "", lockstate.ExactPath{}
	}
	return p.Class + " sync.Cond", p
}

// exported reports whether the last name of a class is exported: code
// in other packages may use it.
func exported(class string) bool {
	i := strings.LastIndexAny(class, ".")
	return i >= 0 && ast.IsExported(class[i+1:])
}

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
// through the parameter or free variable it is reached from.
func (c *checker) translate(p lockstate.ExactPath, call *ssa.Call, fn *ssa.Function) (lockstate.ExactPath, bool) {
	if isGlobal(p) {
		return p, true
	}
	flow := c.prog.Flow(call.Parent())
	if flow == nil {
		return lockstate.ExactPath{}, false
	}
	key := p.Key()
	try := func(v ssa.Value, root, name string) (lockstate.ExactPath, bool) {
		a, ok := flow.Name(v)
		if !ok || a.Weak || !strings.HasPrefix(key, a.Key()) {
			return lockstate.ExactPath{}, false
		}
		rest := key[len(a.Key()):]
		if rest != "" && !strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, "->") {
			return lockstate.ExactPath{}, false
		}
		disp := name + strings.ReplaceAll(rest, "->", "")
		return lockstate.ExactPath{Root: root, Rest: rest, Display: disp, Class: p.Class}, true
	}
	for j, arg := range call.Call.Args {
		if j < len(fn.Params) {
			if q, ok := try(arg, "$"+strconv.Itoa(j), fn.Params[j].Name()); ok {
				return q, true
			}
		}
	}
	if mc, ok := call.Call.Value.(*ssa.MakeClosure); ok {
		for j, b := range mc.Bindings {
			if j < len(fn.FreeVars) {
				if q, ok := try(b, "$f"+strconv.Itoa(j), fn.FreeVars[j].Name()); ok {
					return q, true
				}
			}
		}
	}
	return lockstate.ExactPath{}, false
}

// isGlobal reports whether a lock is a package variable (or in one).
func isGlobal(p lockstate.ExactPath) bool {
	return strings.HasPrefix(p.Root, "@") && !strings.Contains(p.Rest, "->")
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
	if isGlobal(lock) {
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

func (c *checker) check() {
	reported := map[token.Pos]bool{}
	selects := map[*ssa.Select]bool{}
	for _, s := range c.sites {
		if s.kind != send && s.kind != recv && s.kind != wait && s.kind != condWait || s.exits != nil {
			continue
		}
		if s.sel != nil {
			if s.sel.Blocking && !selects[s.sel] {
				selects[s.sel] = true
				c.checkSelect(s.sel, reported)
			}
			continue
		}
		for _, cls := range sortedClasses(c.locksAt(s.fn, s.at)) {
			l := c.locksAt(s.fn, s.at)[cls]
			if !l.Held {
				continue
			}
			if s.kind == condWait {
				if own, ok := c.condL[s.obj]; !ok || own == "" || own == cls {
					continue // Wait releases the cond's own lock
				}
			}
			f, ok := c.blocked(s, l)
			if !ok || reported[s.pos] {
				continue
			}
			reported[s.pos] = true
			what := fmt.Sprintf("%s %s", s.kind, s.loc.Display)
			if s.kind == condWait {
				own := c.condL[s.obj]
				what += " (which releases only its own lock, " + own[strings.LastIndexByte(own, '.')+1:] + ")"
			}
			c.report(s.pos, what, f)
		}
	}
}

// checkSelect reports a select without default all of whose cases block
// on operations whose other sides need the same lock.
func (c *checker) checkSelect(sel *ssa.Select, reported map[token.Pos]bool) {
	var cases []*site
	for _, s := range c.sites {
		if s.sel == sel {
			cases = append(cases, s)
		}
	}
	if len(cases) != len(sel.States) || len(cases) == 0 {
		return
	}
	locks := c.locksAt(cases[0].fn, sel)
	for _, cls := range sortedClasses(locks) {
		l := locks[cls]
		if !l.Held {
			continue
		}
		var first finding
		ok := true
		for i, s := range cases {
			f, blocks := c.blocked(s, l)
			if !blocks {
				ok = false
				break
			}
			if i == 0 {
				first = f
			}
		}
		if !ok || reported[sel.Pos()] {
			continue
		}
		reported[sel.Pos()] = true
		what := "select"
		if len(cases) == 1 {
			what = fmt.Sprintf("select on %s %s", cases[0].kind, cases[0].loc.Display)
		}
		c.report(sel.Pos(), what, first)
	}
}

func (c *checker) report(pos token.Pos, what string, f finding) {
	l, o, ol := f.lock, f.other, f.olock
	how := "with " + ol.Path.Display + " held"
	switch {
	case f.again:
		how = "after locking " + ol.Path.Display + " on some path (its goroutine may be waiting for " + ol.Path.Display + " instead)"
	case !ol.Held:
		how = "only after locking " + ol.Path.Display
	}
	verb := "locked"
	if l.Acq.Read {
		verb = "read-locked"
	}
	where := c.short(o.pos)
	end := "neither side can proceed"
	if f.again {
		end = "then neither side can proceed"
	}
	msg := fmt.Sprintf("%s blocks while holding %s (%s at %s), but the %s that would unblock it (in %s at %s) happens %s: %s",
		what, l.Path.Display, verb, c.short(l.Acq.Pos), o.kind.noun(), o.fn.Name(), where, how, end)
	rel := []analysis.RelatedInformation{{Pos: o.pos, Message: fmt.Sprintf("%s %s, %s", o.kind, o.loc.Display, how)}}
	if ol.Acq.Pos.IsValid() {
		rel = append(rel, analysis.RelatedInformation{Pos: ol.Acq.Pos, Message: ol.Path.Display + " acquired here"})
	}
	c.pass.Report(analysis.Diagnostic{Pos: pos, Message: msg, Related: rel})
}

func (c *checker) short(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func sortedClasses(m map[string]lockflow.Lock) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
