package lockleak

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/ssa"
)

// Analyzer reports locks that some paths of a function release and
// others leave held. Its result is the package's lock flows (*Program),
// which other analyzers use to know the locks held at an instruction.
var Analyzer = &analysis.Analyzer{
	Name:       "lockleak",
	Doc:        doc,
	URL:        "https://pkg.go.dev/github.com/depcon/depcon/analyzers/lockleak",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer, ctrlflow.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf(new(Program)),
}

func run(pass *analysis.Pass) (any, error) {
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	prog := NewProgram(ssainfo.Pkg, pass.Files, func(fn *ssa.Function) bool {
		obj, ok := fn.Object().(*types.Func)
		return ok && cfgs.NoReturn(obj)
	})
	for _, fn := range ssainfo.SrcFuncs {
		if fn.Synthetic != "" {
			continue // a range-over-func body: its returns are continues
		}
		f := prog.Flow(fn)
		if f == nil {
			continue
		}
		r := &reporter{pass: pass, f: f, sx: newSyntax(fn), done: map[token.Pos]bool{}}
		r.returns()
		if r.sx != nil {
			r.loops()
		}
	}
	return prog, nil
}

type reporter struct {
	pass *analysis.Pass
	f    *Flow
	sx   *syntax
	done map[token.Pos]bool
}

func (r *reporter) excluded(k string) bool {
	return r.f.entryHeld[k] || r.f.handedOff[k]
}

func (r *reporter) keys() []string {
	var ks []string
	for k := range r.f.paths {
		if !r.excluded(k) {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	return ks
}

func (r *reporter) report(pos token.Pos, msg string, related ...analysis.RelatedInformation) {
	if !pos.IsValid() || r.done[pos] {
		return
	}
	r.done[pos] = true
	var rel []analysis.RelatedInformation
	for _, x := range related {
		if x.Pos.IsValid() {
			rel = append(rel, x)
		}
	}
	r.pass.Report(analysis.Diagnostic{Pos: pos, Message: msg, Related: rel})
}

func (r *reporter) short(pos token.Pos) string {
	p := r.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func releasing(v uint8) bool { return v&bitN != 0 && v&bitH == 0 }

func (r *reporter) acqText(a Acq) string {
	verb := "locked"
	if a.Read {
		verb = "read-locked"
	}
	if a.Via != "" {
		return fmt.Sprintf("%s by %s at %s", verb, a.Via, r.short(a.Pos))
	}
	return fmt.Sprintf("%s at %s", verb, r.short(a.Pos))
}

// returns reports the returns that leave a lock held while other
// returns of the function release it.
func (r *reporter) returns() {
	rets := r.f.Returns()
	states := make([]*state, len(rets))
	for i, ret := range rets {
		states[i] = r.f.Before(ret)
	}
	for _, k := range r.keys() {
		var leak, rel []int
		for i, s := range states {
			if s == nil || s.dead {
				continue
			}
			switch v := s.exit(k); {
			case v == bitH:
				leak = append(leak, i)
			case releasing(v):
				rel = append(rel, i)
			}
		}
		if len(leak) == 0 || len(rel) == 0 {
			continue
		}
		for _, i := range leak {
			if r.protocol(rets[i], rets, rel) {
				continue
			}
			a := states[i].site[k]
			pos := rets[i].Pos()
			if !pos.IsValid() && r.sx != nil {
				pos = r.sx.body.Rbrace
			}
			r.report(pos,
				fmt.Sprintf("%s is still locked at this return (%s), but the other returns of %s release it: unlock it on this path too",
					a.Path.Display, r.acqText(a), r.f.Fn.Name()),
				analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"},
				analysis.RelatedInformation{Pos: rets[rel[0]].Pos(), Message: "a return that releases it"})
		}
	}
}

// Result signals: what a bool, error or nilable result says to the
// caller.
const (
	sigUnknown = iota
	sigOK
	sigFail
)

// protocol reports whether the leaking return may be a function's way
// of telling its caller that it returns holding the lock: a result
// (bool, error, pointer...) that says success there and failure at some
// releasing return, as in a conditional lock helper
//
//	func (c *Conn) lockOpen() error // returns holding c.mu if nil
func (r *reporter) protocol(leak *ssa.Return, rets []*ssa.Return, rel []int) bool {
	for i, v := range leak.Results {
		s := r.signal(leak, v)
		if s == sigNone {
			continue
		}
		for _, j := range rel {
			t := r.signal(rets[j], rets[j].Results[i])
			switch s {
			case sigOK:
				if t != sigOK {
					return true
				}
			case sigUnknown:
				if t == sigFail {
					return true
				}
			}
		}
	}
	return false
}

const sigNone = -1

func (r *reporter) signal(ret *ssa.Return, v ssa.Value) int {
	t := v.Type()
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind() != types.Bool && u.Kind() != types.UntypedBool {
			return sigNone
		}
		if c, ok := v.(*ssa.Const); ok && c.Value != nil {
			if c.Value.String() == "true" {
				return sigOK
			}
			return sigFail
		}
		return sigUnknown
	case *types.Interface:
		if typeIsError(t) {
			if c, ok := v.(*ssa.Const); ok && c.IsNil() {
				return sigOK
			}
			if nonNil(ret, v) {
				return sigFail
			}
			return sigUnknown
		}
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature, *types.Slice:
	default:
		return sigNone
	}
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return sigFail
	}
	switch v.(type) {
	case *ssa.Alloc, *ssa.MakeClosure, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeInterface:
		return sigOK
	}
	return sigUnknown
}

// nonNil reports whether an error value is certainly not nil: a
// concrete value, a package variable (ErrClosed), a new error, or a
// value checked against nil on the way.
func nonNil(ret *ssa.Return, v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return true
	case *ssa.UnOp:
		if _, ok := v.X.(*ssa.Global); ok {
			return true
		}
	case *ssa.Call:
		if fn, ok := v.Call.Value.(*ssa.Function); ok && fn.Pkg != nil {
			switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
			case "errors.New", "fmt.Errorf":
				return true
			}
		}
	}
	// Dominated by the true branch of v != nil (or the false branch of
	// v == nil).
	b := ret.Block()
	for d := b.Idom(); d != nil; b, d = d, d.Idom() {
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || (cmp.Op != token.NEQ && cmp.Op != token.EQL) {
			continue
		}
		var other ssa.Value
		switch {
		case cmp.X == v:
			other = cmp.Y
		case cmp.Y == v:
			other = cmp.X
		default:
			continue
		}
		if c, ok := other.(*ssa.Const); !ok || !c.IsNil() {
			continue
		}
		want := 0 // the true branch for !=
		if cmp.Op == token.EQL {
			want = 1
		}
		s := d.Succs[want]
		if len(s.Preds) == 1 && s.Dominates(ret.Block()) {
			return true
		}
	}
	return false
}

// loops reports the continue, break and loop-body ends that leave a
// lock held while other iterations release it.
func (r *reporter) loops() {
	fn := r.f.Fn
	for _, h := range fn.Blocks {
		var backs []*ssa.BasicBlock
		for _, p := range h.Preds {
			if h.Dominates(p) {
				backs = append(backs, p)
			}
		}
		if len(backs) == 0 {
			continue
		}
		in := naturalLoop(h, backs)
		var pos []token.Pos
		for b := range in {
			for _, instr := range b.Instrs {
				if _, ok := instr.(*ssa.Phi); ok {
					continue
				}
				if p := instr.Pos(); p.IsValid() {
					pos = append(pos, p)
				}
			}
		}
		l := r.sx.loopOf(pos)
		if l == nil {
			continue
		}
		if rs, ok := l.stmt.(*ast.RangeStmt); ok {
			if _, isFunc := r.pass.TypesInfo.TypeOf(rs.X).Underlying().(*types.Signature); isFunc {
				continue // the body is a function of its own
			}
		}
		// The edges that start the next iteration: into the loop's
		// continue block (the post statement of a three-clause loop)
		// or into the header.
		var conts []edge
		for _, x := range backs {
			if len(x.Preds) >= 2 && len(x.Succs) == 1 && !r.hasLockOps(x) {
				for _, p := range x.Preds {
					conts = append(conts, edge{p, succIndex(p, x)})
				}
				continue
			}
			conts = append(conts, edge{x, succIndex(x, h)})
		}
		var exits []edge
		for b := range in {
			for i, s := range b.Succs {
				if !in[s] {
					exits = append(exits, edge{b, i})
				}
			}
		}
		sort.Slice(exits, func(i, j int) bool {
			if exits[i].b.Index != exits[j].b.Index {
				return exits[i].b.Index < exits[j].b.Index
			}
			return exits[i].i < exits[j].i
		})
		for _, k := range r.keys() {
			if !r.acquiredIn(in, k) || !r.invariant(in, k) {
				continue
			}
			var leak []edge
			released := false
			for _, e := range conts {
				s := r.f.out(e.b, e.i)
				if s.dead {
					continue
				}
				switch v := s.get(k); {
				case v == bitH:
					leak = append(leak, e)
				case releasing(v):
					released = true
				}
			}
			if released && len(leak) > 0 {
				relock, ok := r.relock(h, in, k)
				if ok {
					for _, e := range leak {
						c, ok := r.sx.edgeStmt(l, e.b, e.i)
						if !ok || c.brk {
							continue
						}
						a := r.f.out(e.b, e.i).site[k]
						where := "continues to the next iteration"
						if c.end {
							where = "reaches the end of the loop body"
						}
						r.report(c.pos,
							fmt.Sprintf("%s is still locked (%s) when the loop %s, but other iterations release it; the next iteration locks it again at %s",
								a.Path.Display, r.acqText(a), where, r.short(relock)),
							analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"},
							analysis.RelatedInformation{Pos: relock, Message: "locked again here"})
					}
				}
			}
			r.breaks(l, in, k, exits)
		}
	}
}

// breaks reports a break that leaves the loop holding lock k, when no
// path after it releases k and another way out of the loop (or a
// return) does.
func (r *reporter) breaks(l *loopSyntax, in map[*ssa.BasicBlock]bool, k string, exits []edge) {
	released := false
	var leak []int
	for j, e := range exits {
		s := r.f.out(e.b, e.i)
		if s.dead {
			continue
		}
		v := s.get(k)
		if v == bitH && s.getDef(k) == dE {
			leak = append(leak, j)
		} else if releasing(v) {
			released = true
		}
	}
	if len(leak) == 0 || !released {
		return
	}
	for _, j := range leak {
		e := exits[j]
		c, ok := r.sx.edgeStmt(l, e.b, e.i)
		if !ok || !c.brk {
			continue
		}
		if r.releasedFrom(e.b.Succs[e.i], k) {
			continue
		}
		a := r.f.out(e.b, e.i).site[k]
		r.report(c.pos,
			fmt.Sprintf("%s is still locked (%s) when this break leaves the loop, and no path after the loop releases it, while the loop's other exits do",
				a.Path.Display, r.acqText(a)),
			analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"})
	}
}

// An edge is the i'th outgoing edge of block b.
type edge struct {
	b *ssa.BasicBlock
	i int
}

func (r *reporter) hasLockOps(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		switch instr.(type) {
		case *ssa.Call, *ssa.Defer, *ssa.Go:
			return true
		}
	}
	return false
}

func succIndex(b, s *ssa.BasicBlock) int {
	for i, x := range b.Succs {
		if x == s {
			return i
		}
	}
	return -1
}

// naturalLoop returns the blocks of the loop with header h.
func naturalLoop(h *ssa.BasicBlock, backs []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	in := map[*ssa.BasicBlock]bool{h: true}
	work := append([]*ssa.BasicBlock(nil), backs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if in[b] {
			continue
		}
		in[b] = true
		work = append(work, b.Preds...)
	}
	return in
}

func (r *reporter) acquiredIn(in map[*ssa.BasicBlock]bool, k string) bool {
	for b := range in {
		for _, instr := range b.Instrs {
			if r.f.Acquires(instr, k) {
				return true
			}
		}
	}
	return false
}

// invariant reports whether lock k names the same object in every
// iteration: its values are defined outside the loop, or are loads of
// locations the loop does not store to.
func (r *reporter) invariant(in map[*ssa.BasicBlock]bool, k string) bool {
	p := r.f.paths[k]
	if p.Weak {
		return false
	}
	for _, v := range p.Values {
		instr, ok := v.(ssa.Instruction)
		if !ok || !in[instr.Block()] {
			continue
		}
		load, ok := v.(*ssa.UnOp)
		if !ok {
			return false
		}
		addr, ok := r.f.Namer.Name(load.X)
		if !ok {
			return false
		}
		for b := range in {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if a, ok := r.f.Namer.Name(st.Addr); !ok || a.Key() == addr.Key() {
					return false
				}
			}
		}
	}
	return true
}

// relock returns the first acquisition of k reachable from the loop
// header without releasing it first.
func (r *reporter) relock(h *ssa.BasicBlock, in map[*ssa.BasicBlock]bool, k string) (token.Pos, bool) {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{h}
	best := token.NoPos
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		if seen[b] || !in[b] {
			continue
		}
		seen[b] = true
		stop := false
		for _, instr := range b.Instrs {
			if r.f.Acquires(instr, k) {
				if c := instr.Pos(); c.IsValid() && (!best.IsValid() || c < best) {
					best = c
				}
				stop = true
				break
			}
			if r.f.Releases(instr, k) {
				stop = true
				break
			}
		}
		if !stop {
			work = append(work, b.Succs...)
		}
	}
	return best, best.IsValid()
}

// releasedFrom reports whether some path from b may release k.
func (r *reporter) releasedFrom(b *ssa.BasicBlock, k string) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{b}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		for _, instr := range b.Instrs {
			if r.f.Releases(instr, k) {
				return true
			}
		}
		work = append(work, b.Succs...)
	}
	return false
}
