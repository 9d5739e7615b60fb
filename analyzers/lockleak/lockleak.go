package lockleak

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
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

// Analyzer reports locks that some paths of a function release and
// others leave held, from the lock flows of lockflow.Analyzer.
var Analyzer = &analysis.Analyzer{
	Name:     "lockleak",
	Doc:      analysisdoc.MustExtract(doc, "lockleak"),
	URL:      "https://pkg.go.dev/github.com/depcon/depcon/analyzers/lockleak",
	Requires: []*analysis.Analyzer{buildssa.Analyzer, lockflow.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	prog := pass.ResultOf[lockflow.Analyzer].(*lockflow.Program)
	callers := &callIndex{funcs: ssainfo.SrcFuncs}
	callers.index()
	for _, fn := range ssainfo.SrcFuncs {
		if fn.Synthetic != "" {
			continue // a range-over-func body: its returns are continues
		}
		f := prog.Flow(fn)
		if f == nil {
			continue
		}
		r := &reporter{pass: pass, f: f, sx: newSyntax(fn), done: map[token.Pos]bool{}, callers: callers}
		r.returns()
		if r.sx != nil {
			r.loops()
		}
	}
	return nil, nil
}

type reporter struct {
	pass    *analysis.Pass
	f       *lockflow.Flow
	sx      *syntax
	done    map[token.Pos]bool
	callers *callIndex
}

// A callIndex lists the static calls of the package's functions by
// callee. A function also used as a value (a method value, a function
// passed on), or a method of a name the package calls through an
// interface, has callers the index does not see: it is escaped.
type callIndex struct {
	funcs   []*ssa.Function
	calls   map[*ssa.Function][]*ssa.Call
	escaped map[*ssa.Function]bool
	// unlockers lists, by lock class, whether an exported function of
	// the package releases a lock of that class that its caller holds
	// (an Unlock method).
	unlockers map[string]bool
	// releasers lists, by lock class, whether a function of the package
	// releases a lock of that class that it never acquires.
	releasers map[string]bool
}

func (x *callIndex) index() {
	out := map[*ssa.Function][]*ssa.Call{}
	escaped := map[*ssa.Function]bool{}
	invoked := map[string]bool{} // method names called through interfaces
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok && c.Common().IsInvoke() {
					invoked[c.Common().Method.Name()] = true
				}
				var ops [8]*ssa.Value
				for i, op := range instr.Operands(ops[:0]) {
					if op == nil || *op == nil {
						continue
					}
					g, ok := (*op).(*ssa.Function)
					if !ok {
						if mc, ok := (*op).(*ssa.MakeClosure); ok {
							g, _ = mc.Fn.(*ssa.Function)
						}
					}
					if g == nil {
						continue
					}
					if call, ok := instr.(*ssa.Call); ok && i == 0 && !call.Call.IsInvoke() {
						if _, direct := (*op).(*ssa.Function); direct {
							out[g] = append(out[g], call)
							continue
						}
					}
					escaped[g] = true
				}
			}
		}
	}
	for _, fn := range x.funcs {
		if fn.Signature.Recv() != nil && invoked[fn.Name()] {
			escaped[fn] = true // it may be called through an interface
		}
	}
	x.calls, x.escaped = out, escaped
}

// unlocker reports whether an exported function of the package releases
// a lock of class cls held by its caller.
func (x *callIndex) unlocker(prog *lockflow.Program, cls string) bool {
	if x.unlockers == nil {
		x.unlockers = map[string]bool{}
		for _, fn := range x.funcs {
			if obj, ok := fn.Object().(*types.Func); !ok || !obj.Exported() {
				continue
			}
			f := prog.Flow(fn)
			if f == nil {
				continue
			}
			for _, c := range f.CallerReleases(false) {
				x.unlockers[c] = true
			}
		}
	}
	return x.unlockers[cls]
}

// releaser reports whether a function of the package, exported or not,
// releases a lock of class cls that it never acquires: it works on a
// lock acquired elsewhere and handed to it.
func (x *callIndex) releaser(prog *lockflow.Program, cls string) bool {
	if cls == "" {
		return false
	}
	if x.releasers == nil {
		x.releasers = map[string]bool{}
		for _, fn := range x.funcs {
			f := prog.Flow(fn)
			if f == nil || !f.Summarized() {
				continue
			}
			for _, c := range f.CallerReleases(true) {
				x.releasers[c] = true
			}
		}
	}
	return x.releasers[cls]
}

func (r *reporter) excluded(k string) bool {
	return r.f.EntryHeld(k) || r.f.HandedOff(k)
}

func (r *reporter) keys() []string {
	return slices.DeleteFunc(r.f.Keys(), r.excluded)
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

func (r *reporter) acqText(a lockflow.Acq) string {
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
	states := make([]*lockflow.State, len(rets))
	for i, ret := range rets {
		states[i] = r.f.Before(ret)
	}
	for _, k := range r.keys() {
		var leak, rel []int
		for i, s := range states {
			if s == nil || s.Dead() {
				continue
			}
			switch v := s.Exit(k); {
			case v == lockflow.Held:
				leak = append(leak, i)
			case lockflow.Releasing(v):
				rel = append(rel, i)
			}
		}
		if len(leak) > 0 && len(rel) == 0 {
			r.failures(k, rets, states, leak)
			continue
		}
		if len(leak) == 0 {
			continue
		}
		for _, i := range leak {
			if r.protocol(rets[i], rets, rel) && !r.refuted(k) {
				continue
			}
			a := states[i].Site(k)
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

// failures reports the returns that leave lock k held while returning an
// error, in a function whose returns all leave it held but which releases
// it on other paths (a loop's next iteration), when no caller releases it
// after the call: a lock helper hands its caller the lock with a
// success, not with a failure.
func (r *reporter) failures(k string, rets []*ssa.Return, states []*lockflow.State, leak []int) {
	rel := r.releaseIn(k)
	if rel == nil || r.callerMayRelease(k) {
		return
	}
	for _, i := range leak {
		if !slices.ContainsFunc(rets[i].Results, func(v ssa.Value) bool {
			return typeIsError(v.Type()) && r.signal(rets[i], v) == sigFail
		}) {
			continue
		}
		a := states[i].Site(k)
		r.report(rets[i].Pos(),
			fmt.Sprintf("%s is still locked at this return (%s), which reports an error, but %s releases it on its other paths: unlock it on this path too",
				a.Path.Display, r.acqText(a), r.f.Fn.Name()),
			analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"},
			analysis.RelatedInformation{Pos: rel.Pos(), Message: "released here"})
	}
}

// callerMayRelease reports whether a caller of the function may release
// lock k after the call, whatever the result says: one in the package
// does, or the callers are not all known (a function value, an interface
// method, an exported function whose callers can name the lock or have
// it released by an exported function).
func (r *reporter) callerMayRelease(k string) bool {
	f := r.f
	if r.callers.escaped[f.Fn] || !f.Summarized() {
		return true
	}
	calls := r.callers.calls[f.Fn]
	if len(calls) == 0 {
		obj, ok := f.Fn.Object().(*types.Func)
		return !ok || obj.Exported() && (nameable(f.Path(k)) || r.callers.unlocker(f.Program(), f.Path(k).Class))
	}
	for _, call := range calls {
		if _, _, released, ok := afterCall(f, k, call); !ok || released {
			return true
		}
	}
	return false
}

// afterCall names lock k of f in the function that makes call, and
// reports whether some path after the call releases it there; ok is false
// when that function's flow, or the lock's name in it, is not known.
func afterCall(f *lockflow.Flow, k string, call *ssa.Call) (cf *lockflow.Flow, p lockstate.ExactPath, released, ok bool) {
	if cf = f.Program().Flow(call.Parent()); cf == nil {
		return nil, lockstate.ExactPath{}, false, false
	}
	if p, ok = cf.MapPath(f, k, call.Call.Args); !ok {
		return nil, lockstate.ExactPath{}, false, false
	}
	return cf, p, cf.ReleasedAfter(call, p.Key()), true
}

// releaseIn returns an instruction of the function that releases lock k,
// or nil.
func (r *reporter) releaseIn(k string) ssa.Instruction {
	for _, b := range r.f.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if op := lockstate.LockCall(&call.Call); op.Kind == lockstate.OpUnlock {
				if p, ok := r.f.Name(op.Lock); !ok || p.Key() != k {
					continue // another lock, or one without a name
				}
			}
			if r.f.Releases(instr, k) {
				return instr
			}
		}
	}
	return nil
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

// refuted reports whether the function's callers show that it does not
// return holding lock k on purpose: it has callers in the package, and
// none of them releases k after the call or passes the call's result on
// to callers of its own that may.
func (r *reporter) refuted(k string) bool {
	return refuted(r.f, k, r.callers, 0)
}

func refuted(f *lockflow.Flow, k string, callers *callIndex, depth int) bool {
	if callers.escaped[f.Fn] || !f.Summarized() || depth > 3 {
		return false
	}
	if callers.releaser(f.Program(), f.Path(k).Class) {
		// Another function of the package releases a lock of this class
		// that it did not acquire (a Tx's Rollback releasing the lock
		// its DB's beginTx returned holding): the lock is handed over
		// by design.
		return false
	}
	calls := callers.calls[f.Fn]
	if len(calls) == 0 {
		// Callers outside the package, if exported: they must be
		// able to release the lock.
		obj, ok := f.Fn.Object().(*types.Func)
		return ok && obj.Exported() && !nameable(f.Path(k)) && !callers.unlocker(f.Program(), f.Path(k).Class)
	}
	for _, call := range calls {
		if call.Parent() == f.Fn {
			return false
		}
		cf, p, released, ok := afterCall(f, k, call)
		if !ok || released {
			return false
		}
		if returnsResult(call) && (p.Local() || !refuted(cf, p.Key(), callers, depth+1)) {
			return false // a wrapper, which its own callers may use
		}
	}
	return true
}

// nameable reports whether code of another package can name the lock at
// p to release it: its root is a parameter or an exported package
// variable, and every field on the way is exported.
func nameable(p lockstate.ExactPath) bool {
	switch {
	case strings.HasPrefix(p.Root, "@"):
		if i := strings.LastIndexByte(p.Root, '.'); i < 0 || !token.IsExported(p.Root[i+1:]) {
			return false
		}
	case !strings.HasPrefix(p.Root, "$"):
		return false
	}
	for _, step := range strings.Split(p.Rest, ".")[1:] {
		name := step
		if i := strings.IndexAny(step, "[-"); i >= 0 {
			name = step[:i]
		}
		if name != "" && !token.IsExported(name) {
			return false
		}
	}
	return true
}

// returnsResult reports whether the result of call (or one of its
// results) is returned by its function.
func returnsResult(call *ssa.Call) bool {
	vals := []ssa.Value{call}
	if refs := call.Referrers(); refs != nil {
		for _, ref := range *refs {
			if x, ok := ref.(*ssa.Extract); ok {
				vals = append(vals, x)
			}
		}
	}
	for _, v := range vals {
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			if _, ok := ref.(*ssa.Return); ok {
				return true
			}
		}
	}
	return false
}

func (r *reporter) signal(ret *ssa.Return, v ssa.Value) int {
	v = resultValue(ret, v)
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

// resultValue returns the value a return's operand holds when it loads a
// named result (a function with defers returns *t0, *t1): the last value
// stored there in the return's block, or v.
func resultValue(ret *ssa.Return, v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	instrs := ret.Block().Instrs
	for i := len(instrs) - 1; i >= 0; i-- {
		if st, ok := instrs[i].(*ssa.Store); ok && st.Addr == slot {
			return st.Val
		}
	}
	return v
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
	seen := map[*loopSyntax]bool{}
	var later []func()
	defer func() {
		for _, report := range later {
			report()
		}
	}()
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
		if l == nil || r.funcBody(l) {
			continue
		}
		seen[l] = true
		// The edges that start the next iteration: into the loop's
		// continue block (the post statement of a three-clause loop)
		// or into the header.
		var conts []edge
		for _, x := range backs {
			if (len(x.Preds) >= 2 || isPost(l, x)) && len(x.Succs) == 1 && !r.hasLockOps(x) {
				for _, p := range x.Preds {
					conts = append(conts, edge{p, succIndex(p, x)})
				}
				continue
			}
			conts = append(conts, edge{x, succIndex(x, h)})
		}
		exits := exitEdges(in)
		for _, k := range r.keys() {
			if !r.acquiredIn(in, k) || !r.invariant(in, k) {
				continue
			}
			var leak []edge
			released := false
			for _, e := range conts {
				s := r.f.Out(e.b, e.i)
				if s.Dead() {
					continue
				}
				switch v := s.Get(k); {
				case v == lockflow.Held:
					leak = append(leak, e)
				case lockflow.Releasing(v):
					released = true
				}
			}
			// A continue statement that holds the lock, with the next
			// iteration locking it again, blocks whether or not other
			// iterations release it; the end of the body counts only
			// when they do (a loop left by a break after its first
			// acquisition ends its body holding the lock by design).
			if len(leak) > 0 {
				relock, ok := r.relock(h, in, k)
				if ok {
					for _, e := range leak {
						c, ok := r.sx.edgeStmt(l, e.b, e.i)
						if !ok || c.brk || c.end && !released {
							continue
						}
						a := r.f.Out(e.b, e.i).Site(k)
						where := "continues to the next iteration"
						if c.end {
							where = "reaches the end of the loop body"
						}
						why := "but other iterations release it; "
						report := func() {
							r.report(c.pos,
								fmt.Sprintf("%s is still locked (%s) when the loop %s, %sthe next iteration locks it again at %s",
									a.Path.Display, r.acqText(a), where, why, r.short(relock)),
								analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"},
								analysis.RelatedInformation{Pos: relock, Message: "locked again here"})
						}
						if !released {
							// Last: an inner loop's rules say more
							// of a labeled continue (see breaks).
							why = "and no iteration releases it before "
							later = append(later, report)
							continue
						}
						report()
					}
				}
			}
			r.breaks(l, in, k, exits, released)
		}
	}
	// A loop whose every iteration ends in a break or a return has no
	// back edge (for { mu.Lock(); if c { break }; mu.Unlock(); break }):
	// its blocks are those of its body, and its breaks are checked as
	// any loop's.
	for _, l := range r.sx.loops {
		if seen[l] || r.funcBody(l) {
			continue
		}
		in := map[*ssa.BasicBlock]bool{}
		for _, b := range fn.Blocks {
			if p := minPos(b); p.IsValid() && within(p, l.body) {
				in[b] = true
			}
		}
		if len(in) == 0 {
			continue
		}
		exits := exitEdges(in)
		for _, k := range r.keys() {
			if r.acquiredIn(in, k) {
				r.breaks(l, in, k, exits, false)
			}
		}
	}
}

// isPost reports whether b is the post statement of the three-clause
// loop l (i++), which every continue goes through.
func isPost(l *loopSyntax, b *ssa.BasicBlock) bool {
	fs, ok := l.stmt.(*ast.ForStmt)
	return ok && fs.Post != nil && within(minPos(b), fs.Post)
}

// funcBody reports whether l ranges over a function: its body is a
// function of its own.
func (r *reporter) funcBody(l *loopSyntax) bool {
	rs, ok := l.stmt.(*ast.RangeStmt)
	if !ok {
		return false
	}
	_, isFunc := r.pass.TypesInfo.TypeOf(rs.X).Underlying().(*types.Signature)
	return isFunc
}

// exitEdges returns the edges from the blocks of in to blocks outside
// it, in block order.
func exitEdges(in map[*ssa.BasicBlock]bool) []edge {
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
	return exits
}

// breaks reports a break that leaves the loop holding lock k, when no
// path after it releases k and another way out of the loop (or a
// return) does, or when, other iterations releasing k (iterReleased),
// the paths after it come back to an acquisition of k before releasing
// it (an enclosing loop that enters the loop again).
func (r *reporter) breaks(l *loopSyntax, in map[*ssa.BasicBlock]bool, k string, exits []edge, iterReleased bool) {
	released := false
	var leak []int
	for j, e := range exits {
		s := r.f.Out(e.b, e.i)
		if s.Dead() {
			continue
		}
		v := s.Get(k)
		if v == lockflow.Held && s.Undeferred(k) {
			leak = append(leak, j)
		} else if lockflow.Releasing(v) {
			released = true
		}
	}
	if len(leak) == 0 || !released && !iterReleased {
		return
	}
	for _, j := range leak {
		e := exits[j]
		c, ok := r.sx.edgeStmt(l, e.b, e.i)
		if !ok || !c.brk {
			continue
		}
		after, relock := r.afterExit(e.b.Succs[e.i], k)
		if after || !released && !relock.IsValid() {
			continue
		}
		a := r.f.Out(e.b, e.i).Site(k)
		stmt := "break"
		if c.outer {
			stmt = "continue"
		}
		if relock.IsValid() && iterReleased {
			// An enclosing loop comes back to the acquisition.
			r.report(c.pos,
				fmt.Sprintf("%s is still locked (%s) when this %s leaves the loop, and the enclosing loop locks it again at %s before releasing it",
					a.Path.Display, r.acqText(a), stmt, r.short(relock)),
				analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"},
				analysis.RelatedInformation{Pos: relock, Message: "locked again here"})
			continue
		}
		r.report(c.pos,
			fmt.Sprintf("%s is still locked (%s) when this %s leaves the loop, and no path after the loop releases it, while the loop's other exits do",
				a.Path.Display, r.acqText(a), stmt),
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
	p := r.f.Path(k)
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
		addr, ok := r.f.Name(load.X)
		if !ok {
			return false
		}
		for b := range in {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if a, ok := r.f.Name(st.Addr); !ok || a.Key() == addr.Key() {
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

// afterExit follows the paths from b: released reports whether one of
// them may release k; relock is the first acquisition of k that a path
// reaches before releasing it (an enclosing loop that comes back to it).
func (r *reporter) afterExit(b *ssa.BasicBlock, k string) (released bool, relock token.Pos) {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{b}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		stop := false
		for _, instr := range b.Instrs {
			if r.f.Releases(instr, k) {
				return true, token.NoPos
			}
			if r.f.Acquires(instr, k) {
				if p := instr.Pos(); p.IsValid() && (!relock.IsValid() || p < relock) {
					relock = p
				}
				stop = true
				break
			}
		}
		if !stop {
			work = append(work, b.Succs...)
		}
	}
	return false, relock
}

// typeIsError reports whether t is the error interface.
func typeIsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
