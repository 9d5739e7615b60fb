package blockedlock

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/lockflow"
)

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
