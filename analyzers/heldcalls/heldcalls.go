package heldcalls

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:       "heldcalls",
	Doc:        analysisdoc.MustExtract(doc, "heldcalls"),
	URL:        "https://pkg.go.dev/github.com/depcon/depcon/analyzers/heldcalls",
	Requires:   []*analysis.Analyzer{summary.Analyzer},
	Run:        run,
	FactTypes:  []analysis.Fact{new(Fact)},
	ResultType: reflect.TypeFor[*Result](),
}

// A Lock is a lock held at a call.
type Lock struct {
	Lock, Class string
	Mode        lockstate.Mode
	Pos         token.Pos
	Where       string
}

// An Event is a lock acquisition by the target of a call made while the
// calling function holds a lock.
type Event struct {
	Fn   *ssa.Function // the function holding Held
	Pos  token.Pos     // the call in Fn through which the acquisition happens
	Held Lock          // a lock Fn holds at that call
	// Acq is the target's acquisition; its Lock is mapped onto Fn's
	// locations, "" when it cannot be (a lock reached through a value
	// that the call does not pass).
	Acq    summary.Acquire
	Target *ssa.Function
	// Recursive is set for a recursive call; otherwise the call goes
	// through a function value or an interface.
	Recursive bool
	// Unnamed is set for a lock reached through a value that has no
	// access path (the result of a call): Acq has its class alone, and
	// Target is the function that locks it.
	Unnamed bool
	// Certain is set when the target acquires the lock on every path
	// (the Lock, or the call through which it happens, dominates the
	// target's returns).
	Certain bool
}

// Result lists the events of the package.
type Result struct {
	Events []Event
	// Failures name the functions whose analysis failed on a construct
	// it does not handle, with the reason: their events are missing, and
	// the diagnostics built on them may be too.
	Failures []string
}

// Reentry reports whether the event re-acquires a lock the caller holds
// (the caller's lock or one it may alias: the Classify rules decide how)
// in a way the diagnostics and the plan trust: the acquired lock is
// named in the caller's frame, at a known call; a field lock is not one
// of another type's (the call graph over-approximates the targets); a
// recursive call takes the lock on every path (otherwise a flag may say
// it is held).
func (ev Event) Reentry() bool {
	h, a := ev.Held, ev.Acq
	if a.Lock == "" || !ev.Pos.IsValid() {
		return false
	}
	if fieldClass(a.Class) && fieldClass(h.Class) && a.Class != h.Class {
		return false
	}
	return !ev.Recursive || ev.Certain
}

// Order reports whether the event establishes a lock order (the held
// lock's class, then the acquired one's): two different known classes,
// through a function value or an interface (a recursive call orders a
// lock with itself).
func (ev Event) Order() bool {
	return !ev.Recursive && ev.Held.Class != ev.Acq.Class && ev.Held.Class != "" && ev.Acq.Class != ""
}

// How says how the event's call reaches its target, for a message: "a
// recursive call", "called through an interface", "called through a
// function value".
func (ev Event) How() string {
	switch {
	case ev.Recursive:
		return "a recursive call"
	case ev.Target != nil && ev.Target.Signature.Recv() != nil && ev.Target.Synthetic == "":
		return "called through an interface"
	}
	return "called through a function value"
}

// fieldClass reports whether a lock class names a field ("pkg.T.mu"),
// rather than the type of a lock handed over by pointer ("sync.Mutex").
func fieldClass(class string) bool {
	switch class {
	case "", "sync.Mutex", "sync.RWMutex", "sync.Locker":
		return false
	}
	return true
}

// Fact records, for an exported function, the calls of its function
// parameters in its goroutine, with the locks it holds at each, so that a
// caller in another package passing a closure sees that the closure runs
// under the caller's locks and the function's.
type Fact struct {
	Calls []FactCall
}

// A FactCall is a call of parameter Param with Held held; Args are the
// paths of the call's arguments in the function's frame (without their
// classes).
type FactCall struct {
	Param int
	Args  [][]lockstate.Path
	Held  []Lock
}

func (*Fact) AFact() {}

func (f *Fact) String() string {
	var s []string
	for _, c := range f.Calls {
		var hs []string
		for _, h := range c.Held {
			hs = append(hs, h.Lock+":"+h.Mode.String())
		}
		s = append(s, "call $"+strconv.Itoa(c.Param)+" {"+strings.Join(hs, ",")+"}")
	}
	return strings.Join(s, "; ")
}

// maxTargets bounds the targets of a dynamic call that are followed;
// maxEntries the calls recorded per function; maxDepth the calls through
// which they are propagated.
const (
	maxTargets = 4
	maxEntries = 64
	maxDepth   = 6
)

type heldLock struct {
	Lock
	own bool // reportable in this function
}

// An entry is a call of unknown code in a function or in a callee.
type entry struct {
	pos  token.Pos
	held []heldLock
	args [][]lockstate.Path // the call's arguments (and receiver first, for an invoke)
	// The callee: resolved targets with their frame, or the function
	// value's paths (a bare parameter is resolved by callers), or the
	// original instruction for the call graph.
	targets []*ssa.Function
	binds   [][]lockstate.Path
	cells   []bool
	fnval   []lockstate.Path
	instr   ssa.CallInstruction
	// anon is set for the acquisition of a lock reached through a value
	// that has no access path (a result of a call), known by its class
	// alone; origin is the function where it happens.
	anon   *Lock
	origin *ssa.Function
}

type staticCall struct {
	instr  ssa.CallInstruction
	callee *ssa.Function
	held   []Lock
	fr     lockstate.Frame
	// vals are the values of the callee's parameters, when they are not
	// the call's arguments (a method called through an interface).
	vals []ssa.Value
}

// paramValues returns the values of the callee's parameters at sc.
func (sc staticCall) paramValues() []ssa.Value {
	if sc.vals != nil {
		return sc.vals
	}
	return sc.instr.Common().Args
}

type funcInfo struct {
	fn      *ssa.Function
	acqs    []mustAcq // the lock acquisitions and static calls, in order
	r       *lockstate.Namer
	entries []*entry
	calls   []staticCall
	eff     []*entry
	done    bool
	mustSet []Lock
	mustOK  bool
}

// A mustAcq is a lock acquisition (or a static call, with callee set) in
// its block.
type mustAcq struct {
	block  *ssa.BasicBlock
	lock   Lock
	callee *ssa.Function
	fr     lockstate.Frame
}

type analyzer struct {
	pass  *analysis.Pass
	res   *summary.Result
	infos map[*ssa.Function]*funcInfo
	busy  map[*ssa.Function]bool
	cg    *callgraph.Graph
	cgOK  bool
	// follow is set when the targets of calls through function values
	// and interfaces are followed (see run).
	follow   bool
	deepMemo map[*ssa.Function][]summary.Acquire
	// closures indexes the closures and bound method values of the
	// package by function.
	closures map[*ssa.Function][]*ssa.MakeClosure
	// fieldStores indexes the package's stores into fields by the
	// field's class (see stores).
	fieldStores map[string][]*ssa.Store
}

// stores returns the package's stores into a field of class.
func (a *analyzer) stores(class string) []*ssa.Store {
	if a.fieldStores == nil {
		a.fieldStores = map[string][]*ssa.Store{}
		for _, fn := range a.res.SSA.SrcFuncs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					st, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
						_, c := lockstate.FieldOf(fa.X.Type(), fa.Field)
						a.fieldStores[c] = append(a.fieldStores[c], st)
					}
				}
			}
		}
	}
	return a.fieldStores[class]
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	a := &analyzer{pass: pass, res: res, infos: map[*ssa.Function]*funcInfo{}, busy: map[*ssa.Function]bool{}}
	// The calls of unknown code are followed into their targets only in
	// a package that holds a lock at such a call, where the call graph is
	// computed anyway.
	for _, fn := range res.SSA.SrcFuncs {
		for _, e := range a.info(fn).entries {
			if len(e.held) > 0 && e.anon == nil {
				a.follow = true
			}
		}
	}
	out := &Result{}
	for _, fn := range res.SSA.SrcFuncs {
		fi := a.info(fn)
		evs, err := a.safeEvents(fi)
		if err != "" {
			out.Failures = append(out.Failures, fn.String()+": "+err)
		}
		out.Events = append(out.Events, evs...)
		if obj, ok := fn.Object().(*types.Func); ok && obj.Exported() && fn.Parent() == nil {
			if f := a.fact(fi); f != nil {
				pass.ExportObjectFact(obj, f)
			}
		}
	}
	return out, nil
}

// safeEvents returns the events of fi; a construct the analysis does not
// handle costs that function's events, not the package's vet run, and
// is returned as the failure.
func (a *analyzer) safeEvents(fi *funcInfo) (evs []Event, failure string) {
	defer func() {
		if r := recover(); r != nil {
			evs, failure = nil, fmt.Sprint(r)
		}
	}()
	return a.events(fi), ""
}

func (a *analyzer) sum(fn *ssa.Function) *summary.Summary {
	if s := a.res.Of(fn); s != nil {
		return s
	}
	if o := fn.Origin(); o != nil {
		return a.res.Of(o)
	}
	return nil
}

func (a *analyzer) here(fn *ssa.Function) bool {
	if fn.Blocks == nil && fn.Origin() != nil {
		fn = fn.Origin()
	}
	return fn.Blocks != nil && (fn.Pkg == nil || fn.Pkg.Pkg == a.pass.Pkg)
}

// info walks fn once.
func (a *analyzer) info(fn *ssa.Function) *funcInfo {
	if fn.Blocks == nil && fn.Origin() != nil {
		fn = fn.Origin()
	}
	if fi, ok := a.infos[fn]; ok {
		return fi
	}
	fi := &funcInfo{fn: fn, r: lockstate.NewNamer(fn)}
	a.infos[fn] = fi
	if fn.Blocks != nil {
		(&walker{a: a, fi: fi}).run()
	}
	return fi
}

// effective returns the entries of fi: its own calls of unknown code and
// those of its callees in the package, mapped onto its frame.
func (a *analyzer) effective(fi *funcInfo, depth int) []*entry {
	if fi.done {
		return fi.eff
	}
	if a.busy[fi.fn] || depth > maxDepth {
		return fi.entries
	}
	a.busy[fi.fn] = true
	defer delete(a.busy, fi.fn)
	out := slices.Clone(fi.entries)
	for _, sc := range fi.calls {
		var sub []*entry
		if a.here(sc.callee) {
			sub = a.effective(a.info(sc.callee), depth+1)
		} else {
			sub = a.imported(sc.callee)
		}
		for _, e := range sub {
			if len(out) >= maxEntries {
				break
			}
			if p := a.propagate(fi, e, sc); p != nil {
				out = append(out, p)
			}
		}
	}
	// The calls of unknown code made by the targets of fi's own calls
	// through function values and interfaces.
	if a.follow {
		for _, e := range fi.entries {
			if e.instr == nil || e.anon != nil || e.targets != nil || len(e.fnval) == 1 && isParam(e.fnval[0]) {
				continue
			}
			c := e.instr.Common()
			vals := c.Args
			if c.IsInvoke() {
				vals = append([]ssa.Value{c.Value}, c.Args...)
			}
			var held []Lock
			for _, h := range e.held {
				held = append(held, h.Lock)
			}
			for _, t := range a.dynamic(e.instr) {
				if !a.here(t) || a.busy[t] {
					continue
				}
				sc := staticCall{instr: e.instr, callee: t, held: held, fr: lockstate.Frame{Args: e.args}, vals: vals}
				for _, sub := range a.effective(a.info(t), depth+1) {
					if len(out) >= maxEntries {
						break
					}
					if p := a.propagate(fi, sub, sc); p != nil {
						out = append(out, p)
					}
				}
			}
		}
	}
	fi.eff, fi.done = out, true
	return out
}

// imported returns the entries of a function of another package, from its
// fact.
func (a *analyzer) imported(fn *ssa.Function) []*entry {
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == a.pass.Pkg {
		return nil
	}
	var f Fact
	if !a.pass.ImportObjectFact(obj, &f) {
		return nil
	}
	var out []*entry
	for _, c := range f.Calls {
		e := &entry{fnval: []lockstate.Path{{Str: "$" + strconv.Itoa(c.Param)}}}
		for _, ps := range c.Args {
			e.args = append(e.args, append([]lockstate.Path(nil), ps...))
		}
		for _, h := range c.Held {
			h.Pos = token.NoPos
			e.held = append(e.held, heldLock{Lock: h})
		}
		out = append(out, e)
	}
	return out
}

// propagate maps e, an entry of the callee of sc, onto fi's frame.
func (a *analyzer) propagate(fi *funcInfo, e *entry, sc staticCall) *entry {
	p := &entry{pos: callPos(sc.instr, fi.fn)}
	// A callee that releases a lock its caller holds (to block, or to
	// upgrade a read lock) does so before the calls it makes, as far as
	// its summary tells.
	released := a.released(sc.callee, sc.fr)
	for _, h := range sc.held {
		if !slices.Contains(released, h.Lock) {
			p.held = append(p.held, heldLock{Lock: h, own: true})
		}
	}
	resolvedHere := false
	mapPaths := func(ps [][]lockstate.Path) [][]lockstate.Path {
		out := make([][]lockstate.Path, len(ps))
		for i, vs := range ps {
			for _, v := range vs {
				out[i] = lockstate.AppendPaths(out[i], sc.fr.Value(v)...)
			}
		}
		return out
	}
	p.args = mapPaths(e.args)
	switch {
	case e.anon != nil:
		p.anon, p.origin = e.anon, e.origin
	case e.targets != nil:
		p.targets, p.binds, p.cells = e.targets, mapPaths(e.binds), e.cells
	case len(e.fnval) == 1 && isParam(e.fnval[0]):
		k := lockstate.ParseIndex(e.fnval[0].Str[1:])
		args := sc.paramValues()
		if k < 0 || k >= len(args) {
			return nil
		}
		switch v := args[k].(type) {
		case *ssa.Function:
			p.targets = []*ssa.Function{v}
			resolvedHere = true
		case *ssa.MakeClosure:
			p.targets = []*ssa.Function{v.Fn.(*ssa.Function)}
			p.binds, p.cells = lockstate.Bindings(fi.r, v.Bindings)
			resolvedHere = true
		default:
			// A function value loaded from memory: the call graph
			// resolves it here, where the callee's locks are known.
			p.fnval = sc.fr.Value(e.fnval[0])
			p.instr = e.instr
			resolvedHere = len(p.fnval) != 1 || !isParam(p.fnval[0])
		}
	default:
		for _, v := range e.fnval {
			p.fnval = lockstate.AppendPaths(p.fnval, sc.fr.Value(v)...)
		}
		p.instr = e.instr
	}
	for _, h := range e.held {
		for _, l := range sc.fr.Loc(h.Lock.Lock) {
			if slices.ContainsFunc(p.held, func(x heldLock) bool { return x.Lock.Lock == l }) {
				continue
			}
			m := h.Lock
			m.Lock = l
			if !a.local(m.Pos) {
				m.Pos = p.pos
			}
			p.held = append(p.held, heldLock{Lock: m, own: resolvedHere})
		}
	}
	if p.targets == nil && p.instr == nil && p.fnval == nil && p.anon == nil {
		return nil
	}
	return p
}

func (a *analyzer) local(pos token.Pos) bool {
	if !pos.IsValid() {
		return false
	}
	f := a.pass.Fset.File(pos)
	for _, af := range a.pass.Files {
		if a.pass.Fset.File(af.Pos()) == f {
			return true
		}
	}
	return false
}

func isParam(p lockstate.Path) bool {
	return !p.Loaded && len(p.Str) > 1 && p.Str[0] == '$' && p.Str[1] != 'f' && lockstate.Root(p.Str) == p.Str
}

// fact returns the calls of fi's function parameters with locks held.
func (a *analyzer) fact(fi *funcInfo) *Fact {
	var f Fact
	for _, e := range a.effective(fi, 0) {
		// Calls without a lock held count too: the caller's locks are
		// held while the function runs its argument (sort.Slice).
		if e.targets != nil || e.anon != nil || len(e.fnval) != 1 || !isParam(e.fnval[0]) {
			continue
		}
		c := FactCall{Param: lockstate.ParseIndex(e.fnval[0].Str[1:])}
		for _, vs := range e.args {
			var fs []lockstate.Path
			for _, v := range vs {
				fs = append(fs, lockstate.Path{Str: v.Str, Loaded: v.Loaded})
			}
			c.Args = append(c.Args, fs)
		}
		for _, h := range e.held {
			l := h.Lock
			l.Pos = token.NoPos
			c.Held = append(c.Held, l)
		}
		f.Calls = append(f.Calls, c)
	}
	if len(f.Calls) == 0 {
		return nil
	}
	return &f
}

// events returns the acquisitions by the targets of fi's calls made with
// a lock fi holds.
func (a *analyzer) events(fi *funcInfo) []Event {
	var out []Event
	for _, e := range a.effective(fi, 0) {
		if !slices.ContainsFunc(e.held, func(h heldLock) bool { return h.own }) {
			continue
		}
		if e.anon != nil {
			acq := summary.Acquire{Class: e.anon.Class, Mode: e.anon.Mode, Pos: e.anon.Pos, Where: e.anon.Where, Via: e.origin.Name()}
			if e.origin == fi.fn {
				acq.Via = ""
			}
			for _, h := range e.held {
				if h.own && h.Class != "" {
					out = append(out, Event{Fn: fi.fn, Pos: e.pos, Held: h.Lock, Acq: acq, Target: e.origin, Unnamed: true})
				}
			}
			continue
		}
		targets := e.targets
		var fr lockstate.Frame
		if targets != nil {
			fr = lockstate.Frame{Args: e.args, Binds: e.binds, Cells: e.cells}
		} else {
			if e.instr == nil || len(e.fnval) == 1 && isParam(e.fnval[0]) {
				continue // resolved by the callers
			}
			targets = a.dynamic(e.instr)
			fr = lockstate.Frame{Args: e.args}
		}
		owner, field := ownerOf(e.fnval)
		if field != "" && e.targets == nil {
			// A function made once (sync.OnceFunc, OnceValue) and
			// stored in the field: calling it runs the function.
			for _, t := range a.onceTargets(field, e.fnval[0].Class) {
				if !slices.Contains(targets, t) {
					targets = append(targets, t)
				}
			}
		}
		for _, t := range targets {
			tfr := fr
			if tfr.Binds == nil && field != "" {
				tfr.Binds, tfr.Cells = a.ownerBinds(t, field, owner)
			}
			if e.instr != nil && e.instr.Common().IsInvoke() && len(e.args) > 0 && len(e.args[0]) == 1 {
				// An interface value loaded from a field of an object,
				// holding an adapter that wraps the object itself.
				if o, f := ownerOf(e.args[0]); f != "" {
					if g := a.wrapped(t, f, e.args[0][0].Class, o); g != nil {
						tfr.Fields = []map[string][]lockstate.Path{g}
					}
				}
			}
			sum, tfr := a.target(t, tfr)
			if sum == nil {
				continue
			}
			var released []string
			for _, r := range sum.Released {
				released = append(released, tfr.Loc(r)...)
			}
			acqs := sum.Acquires
			if a.follow {
				acqs = append(slices.Clone(acqs), a.deep(t, 0)...)
			}
			for _, acq := range acqs {
				if acq.Goroutine {
					continue
				}
				acq = inCaller(&tfr, acq, t)
				certain := dominatesReturns(t, acq.Pos)
				for _, h := range e.held {
					if h.own && !slices.Contains(released, h.Lock.Lock) {
						out = append(out, Event{Fn: fi.fn, Pos: e.pos, Held: h.Lock, Acq: acq, Target: t, Certain: certain})
					}
				}
			}
		}
	}
	// Static calls made while holding a lock without an access path: the
	// summaries do not see the orders it takes part in.
	for _, sc := range fi.calls {
		var unnamed []Lock
		for _, h := range sc.held {
			if lockstate.IsUnnamed(h.Lock) {
				unnamed = append(unnamed, h)
			}
		}
		sum := a.sum(sc.callee)
		if len(unnamed) == 0 || sum == nil {
			continue
		}
		for _, acq := range sum.Acquires {
			if acq.Goroutine {
				continue
			}
			ls := sc.fr.Loc(acq.Lock)
			acq.Lock = ""
			if len(ls) == 1 {
				acq.Lock = ls[0]
			}
			acq.Held = nil
			if acq.Via == "" {
				acq.Via = sc.callee.Name()
			}
			for _, u := range unnamed {
				out = append(out, Event{Fn: fi.fn, Pos: callPos(sc.instr, fi.fn), Held: u, Acq: acq, Target: sc.callee, Unnamed: true})
			}
		}
	}
	// Recursive calls: the summaries see a recursive callee as empty;
	// the locks it acquires on every path are computed here.
	for _, sc := range fi.calls {
		if len(sc.held) == 0 || !a.here(sc.callee) || !a.recursive(fi.fn, sc.callee) {
			continue
		}
		for _, m := range a.reentry(fi.fn, a.info(sc.callee), map[*ssa.Function]bool{}) {
			ls := sc.fr.Loc(m.Lock)
			if len(ls) != 1 {
				continue
			}
			acq := summary.Acquire{Lock: ls[0], Class: m.Class, Mode: m.Mode, Pos: m.Pos, Where: m.Where, Via: sc.callee.Name()}
			for _, h := range sc.held {
				out = append(out, Event{Fn: fi.fn, Pos: callPos(sc.instr, fi.fn), Held: h, Acq: acq, Target: sc.callee, Recursive: true, Certain: true})
			}
		}
	}
	return out
}

// target returns the summary of a target and the frame of its roots: the
// method behind a bound method value takes the bound receiver as $0.
func (a *analyzer) target(t *ssa.Function, fr lockstate.Frame) (*summary.Summary, lockstate.Frame) {
	if s := a.sum(t); s != nil {
		return s, fr
	}
	obj, ok := t.Object().(*types.Func)
	if !ok || t.Synthetic == "" {
		return nil, fr
	}
	m := t.Prog.FuncValue(obj)
	if m == nil || m == t {
		return nil, fr
	}
	s := a.sum(m)
	if s == nil {
		return nil, fr
	}
	if len(t.FreeVars) == 1 && strings.HasPrefix(t.Synthetic, "bound") {
		// A bound method value: $f0 is the receiver.
		var recv []lockstate.Path
		if len(fr.Binds) == 1 {
			recv = fr.Binds[0]
		}
		return s, lockstate.Frame{Args: append([][]lockstate.Path{recv}, fr.Args...)}
	}
	return s, fr
}

// dynamic returns the targets of a call through a function value or an
// interface, from the package's call graph.
func (a *analyzer) dynamic(instr ssa.CallInstruction) []*ssa.Function {
	if !a.cgOK {
		a.cgOK = true
		a.cg = a.callGraph()
	}
	if a.cg == nil {
		return nil
	}
	n := a.cg.Nodes[instr.Parent()]
	if n == nil {
		return nil
	}
	var out []*ssa.Function
	for _, e := range n.Out {
		// A call into sync is no call of unknown code: the entry of a
		// parameter that a helper runs with Once.Do has that call as
		// its instruction, and the parameter, not Do, is its target.
		if e.Site == instr && e.Callee.Func != nil && !slices.Contains(out, e.Callee.Func) && lockstate.SyncMethod(e.Callee.Func) == "" {
			out = append(out, e.Callee.Func)
		}
	}
	if len(out) > maxTargets {
		return nil
	}
	return out
}

// callGraph computes the VTA call graph of the package's functions. It
// returns nil if the computation fails (the functions are built without
// instantiating generics, which VTA expects).
func (a *analyzer) callGraph() (cg *callgraph.Graph) {
	defer func() {
		if recover() != nil {
			cg = nil
		}
	}()
	funcs := map[*ssa.Function]bool{}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if funcs[fn] || fn.TypeParams().Len() > 0 {
			return
		}
		funcs[fn] = true
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
		// Bound method values and method expressions are wrappers
		// outside SrcFuncs.
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil {
						continue
					}
					switch v := (*op).(type) {
					case *ssa.MakeClosure:
						add(v.Fn.(*ssa.Function))
					case *ssa.Function:
						if v.Synthetic != "" {
							add(v)
						}
					}
				}
			}
		}
	}
	for _, fn := range a.res.SSA.SrcFuncs {
		add(fn)
	}
	return vta.CallGraph(funcs, nil)
}

// recursive reports whether callee may call fn back, through static calls
// of the package.
func (a *analyzer) recursive(fn, callee *ssa.Function) bool {
	if callee == fn {
		return true
	}
	seen := map[*ssa.Function]bool{}
	var reach func(f *ssa.Function, depth int) bool
	reach = func(f *ssa.Function, depth int) bool {
		if f == fn {
			return true
		}
		if seen[f] || depth > 8 || !a.here(f) {
			return false
		}
		seen[f] = true
		for _, sc := range a.info(f).calls {
			if reach(sc.callee, depth+1) {
				return true
			}
		}
		return false
	}
	return reach(callee, 0)
}

// callPos returns the position of a call: its own, or fn's. (The
// summaries' lockstate.InstrPos tries the call's operands before fn.)
func callPos(instr ssa.Instruction, fn *ssa.Function) token.Pos {
	if p := instr.Pos(); p.IsValid() {
		return p
	}
	return fn.Pos()
}

// ownerOf splits the path of a function value loaded from a field
// ("$0.onFire", "$0.t->onFire") into the object holding it and the
// field's name.
func ownerOf(fnval []lockstate.Path) (lockstate.Path, string) {
	if len(fnval) != 1 || !fnval[0].Loaded {
		return lockstate.Path{}, ""
	}
	s := fnval[0].Str
	i := strings.LastIndexAny(s, ".>")
	if i <= 0 || s[i] == '.' && strings.HasPrefix(s, "@") && !strings.Contains(s[:i], ".") {
		return lockstate.Path{}, ""
	}
	name := s[i+1:]
	if s[i] == '>' {
		if s[i-1] != '-' {
			return lockstate.Path{}, ""
		}
		return lockstate.Path{Str: s[:i-1], Loaded: true}, name
	}
	if strings.HasSuffix(s[:i], "]") {
		return lockstate.Path{}, ""
	}
	return lockstate.Path{Str: s[:i]}, name
}

// ownerBinds returns the bindings of t when every closure of t in the
// package is stored in field of the very object one of its free
// variables holds (s.onChange = func() { s.mu.Lock() … }, or a method
// value s.handle stored in s.onEvent): that free variable is the object
// the function value is loaded from.
func (a *analyzer) ownerBinds(t *ssa.Function, field string, owner lockstate.Path) ([][]lockstate.Path, []bool) {
	if a.closures == nil {
		a.closures = map[*ssa.Function][]*ssa.MakeClosure{}
		for _, fn := range a.res.SSA.SrcFuncs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if mc, ok := instr.(*ssa.MakeClosure); ok {
						f := mc.Fn.(*ssa.Function)
						a.closures[f] = append(a.closures[f], mc)
					}
				}
			}
		}
	}
	mcs := a.closures[t]
	if len(mcs) == 0 {
		return nil, nil
	}
	idx := -1
	cell := false
	// match finds the binding of mc that holds owner, the object whose
	// field receives the closure.
	match := func(mc *ssa.MakeClosure, owner ssa.Value) bool {
		found := -1
		for i, b := range mc.Bindings {
			if b == owner {
				found, cell = i, false
			} else if c, ok := b.(*ssa.Alloc); ok && holds(c, owner) {
				found, cell = i, true
			}
		}
		if found < 0 || idx >= 0 && found != idx {
			return false
		}
		idx = found
		return true
	}
	for _, mc := range mcs {
		stored := false
		// The closure, and its conversions to a named func type.
		vals := []ssa.Value{mc}
		var refs []ssa.Instruction
		for _, ref := range *mc.Referrers() {
			if ct, ok := ref.(*ssa.ChangeType); ok {
				vals = append(vals, ct)
				refs = append(refs, *ct.Referrers()...)
				continue
			}
			refs = append(refs, ref)
		}
		for _, ref := range refs {
			switch ref := ref.(type) {
			case *ssa.Store:
				if !slices.Contains(vals, ref.Val) {
					continue
				}
				fa, ok := ref.Addr.(*ssa.FieldAddr)
				if !ok {
					return nil, nil
				}
				if name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field); name != field || !match(mc, fa.X) {
					return nil, nil
				}
				stored = true
			case *ssa.Call:
				if onceFunc(ref) {
					// sync.OnceValue(func() { x.… }) stored in a field
					// of x.
					owner := storedIn(ref, field)
					if owner == nil || !match(mc, owner) {
						return nil, nil
					}
					stored = true
					continue
				}
				// A setter: x.SetHook(func() { x.… }) storing its
				// parameter in a field of its receiver.
				owner := setterOwner(ref, vals, field)
				if owner == nil || !match(mc, owner) {
					return nil, nil
				}
				stored = true
			default:
				return nil, nil
			}
		}
		if !stored {
			return nil, nil
		}
	}
	binds := make([][]lockstate.Path, len(t.FreeVars))
	cells := make([]bool, len(t.FreeVars))
	binds[idx], cells[idx] = []lockstate.Path{owner}, cell
	return binds, cells
}

// onceFunc reports whether call makes a function that calls its argument
// once: sync.OnceFunc, sync.OnceValue, sync.OnceValues.
func onceFunc(call *ssa.Call) bool {
	switch lockstate.SyncMethod(call.Call.StaticCallee()) {
	case "sync.OnceFunc", "sync.OnceValue", "sync.OnceValues":
		return len(call.Call.Args) == 1
	}
	return false
}

// storedIn returns the object in whose field the result of call is
// stored, when that is all that is done with it.
func storedIn(call *ssa.Call, field string) ssa.Value {
	var owner ssa.Value
	for _, ref := range *call.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != call {
			return nil
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok {
			return nil
		}
		if name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field); name != field || owner != nil {
			return nil
		}
		owner = fa.X
	}
	return owner
}

// onceTargets returns the functions that the package wraps with
// sync.OnceFunc, OnceValue or OnceValues and stores in field (of class).
func (a *analyzer) onceTargets(field, class string) []*ssa.Function {
	var out []*ssa.Function
	for _, st := range a.stores(class) {
		fa := st.Addr.(*ssa.FieldAddr)
		if name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field); name != field {
			continue
		}
		call, ok := st.Val.(*ssa.Call)
		if !ok || !onceFunc(call) {
			continue
		}
		var t *ssa.Function
		switch f := call.Call.Args[0].(type) {
		case *ssa.Function:
			t = f
		case *ssa.MakeClosure:
			t = f.Fn.(*ssa.Function)
		}
		if t != nil && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) > maxTargets {
		return nil
	}
	return out
}

// wrapped returns what the fields of t's receiver hold when t is called
// through an interface value loaded from field (of class) of the object
// owner: when every value stored in that field in the package whose
// type is t's receiver type is an adapter struct made with the very
// object whose field receives it in one of its fields (s.handler =
// recorder{s}, p.notify = &pool{p: p}), that field holds owner. It
// returns nil when no such store is found, when a store gives the
// adapter another object or in another field, or when a value of unknown
// dynamic type is stored in the field (a setter's parameter).
func (a *analyzer) wrapped(t *ssa.Function, field, class string, owner lockstate.Path) map[string][]lockstate.Path {
	recv := t.Signature.Recv()
	if recv == nil || t.Synthetic != "" {
		return nil
	}
	rt := lockstate.Deref(recv.Type())
	if _, ok := rt.Underlying().(*types.Struct); !ok {
		return nil
	}
	held := ""
	for _, st := range a.stores(class) {
		fa := st.Addr.(*ssa.FieldAddr)
		if name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field); name != field {
			continue
		}
		x := st.Val
		for {
			if mi, ok := x.(*ssa.MakeInterface); ok {
				x = mi.X
			} else if ci, ok := x.(*ssa.ChangeInterface); ok {
				x = ci.X
			} else {
				break
			}
		}
		if types.IsInterface(x.Type()) {
			return nil // of unknown dynamic type
		}
		if !types.Identical(lockstate.Deref(x.Type()), rt) {
			continue // another implementation
		}
		g := holder(x, fa.X)
		if g == "" || held != "" && g != held {
			return nil
		}
		held = g
	}
	if held == "" {
		return nil
	}
	return map[string][]lockstate.Path{held: {owner}}
}

// holder returns the field of the struct that x is (or points to), made
// in its function, that holds obj: stored once, with obj itself or with a
// variable that holds it. It returns "" when there is none, or several.
func holder(x, obj ssa.Value) string {
	if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
		x = u.X
	}
	al, ok := x.(*ssa.Alloc)
	if !ok {
		return ""
	}
	found := ""
	stores := map[int]int{}
	for _, ref := range *al.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		for _, use := range *fa.Referrers() {
			st, ok := use.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			stores[fa.Field]++
			if sameObject(st.Val, obj) {
				name, _ := lockstate.FieldOf(al.Type(), fa.Field)
				if found != "" && found != name {
					return ""
				}
				found = name
				if stores[fa.Field] > 1 {
					return ""
				}
			}
		}
	}
	for f, n := range stores {
		if n > 1 {
			if name, _ := lockstate.FieldOf(al.Type(), f); name == found {
				return ""
			}
		}
	}
	return found
}

// sameObject reports whether a and b are the same value, or loads of one
// variable assigned once (a receiver captured by a closure).
func sameObject(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ua, ok1 := a.(*ssa.UnOp)
	ub, ok2 := b.(*ssa.UnOp)
	if !ok1 || !ok2 || ua.Op != token.MUL || ub.Op != token.MUL || ua.X != ub.X {
		return false
	}
	cell, ok := ua.X.(*ssa.Alloc)
	return ok && holds(cell, a)
}

// holds reports whether x is the value of the cell, which is assigned
// once: x is loaded from it, or is the value stored.
func holds(cell *ssa.Alloc, x ssa.Value) bool {
	var stored []ssa.Value
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell {
			stored = append(stored, st.Val)
		}
	}
	if len(stored) != 1 {
		return false
	}
	if u, ok := x.(*ssa.UnOp); ok && u.X == cell {
		return true
	}
	return stored[0] == x
}

// dominatesReturns reports whether the call at pos in fn (a Lock, or the
// call through which a lock is acquired) is on every path to fn's
// returns.
func dominatesReturns(fn *ssa.Function, pos token.Pos) bool {
	if fn.Blocks == nil && fn.Origin() != nil {
		fn = fn.Origin()
	}
	if !pos.IsValid() || fn.Blocks == nil {
		return false
	}
	var at *ssa.BasicBlock
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(ssa.CallInstruction); ok && instr.Pos() == pos {
				at = b
			}
		}
	}
	if at == nil {
		return false
	}
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 || b == fn.Recover {
			continue
		}
		switch b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return, *ssa.Panic:
			if !at.Dominates(b) {
				return false
			}
		}
	}
	return true
}

// must returns the locks fn acquires on every path to its returns,
// directly or through the callees of the package: the acquisitions in
// blocks that dominate every return. Locks the function may release
// without acquiring them (it drops its caller's lock) are left out.
func (a *analyzer) must(fi *funcInfo) []Lock {
	if fi.mustOK || a.busy[fi.fn] {
		return fi.mustSet
	}
	a.busy[fi.fn] = true
	defer delete(a.busy, fi.fn)
	var rets []*ssa.BasicBlock
	for _, b := range fi.fn.Blocks {
		if len(b.Instrs) == 0 || b == fi.fn.Recover {
			continue
		}
		switch b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return, *ssa.Panic:
			rets = append(rets, b)
		}
	}
	dominates := func(b *ssa.BasicBlock) bool {
		for _, r := range rets {
			if !b.Dominates(r) {
				return false
			}
		}
		return len(rets) > 0
	}
	var released []string
	if s := a.sum(fi.fn); s != nil {
		released = s.Released
	}
	var out []Lock
	add := func(l Lock) {
		if !slices.Contains(released, l.Lock) && !slices.ContainsFunc(out, func(x Lock) bool { return x.Lock == l.Lock }) {
			out = append(out, l)
		}
	}
	for _, m := range fi.acqs {
		if !dominates(m.block) {
			continue
		}
		if m.callee == nil {
			add(m.lock)
			continue
		}
		if !a.here(m.callee) {
			continue
		}
		for _, l := range a.must(a.info(m.callee)) {
			if ls := m.fr.Loc(l.Lock); len(ls) == 1 {
				l.Lock = ls[0]
				add(l)
			}
		}
	}
	fi.mustSet, fi.mustOK = out, true
	return out
}

// reentry returns the locks that a recursive call of fi acquires for
// certain once it runs a function of the recursion: the locks fi
// acquires on every path, and those of the functions it calls that may
// call root back, mapped onto fi's frame. A function that releases a
// lock its caller holds is left out for that lock.
func (a *analyzer) reentry(root *ssa.Function, fi *funcInfo, seen map[*ssa.Function]bool) []Lock {
	if seen[fi.fn] {
		return nil
	}
	seen[fi.fn] = true
	out := slices.Clone(a.must(fi))
	var released []string
	if s := a.sum(fi.fn); s != nil {
		released = s.Released
	}
	for _, sc := range fi.calls {
		if !a.here(sc.callee) || !a.recursive(root, sc.callee) {
			continue
		}
		for _, l := range a.reentry(root, a.info(sc.callee), seen) {
			ls := sc.fr.Loc(l.Lock)
			if len(ls) != 1 || slices.Contains(released, ls[0]) || slices.ContainsFunc(out, func(x Lock) bool { return x.Lock == ls[0] }) {
				continue
			}
			l.Lock = ls[0]
			out = append(out, l)
		}
	}
	return out
}

// released returns the locks callee may release without acquiring them,
// mapped onto its caller's locations.
func (a *analyzer) released(callee *ssa.Function, fr lockstate.Frame) []string {
	sum := a.sum(callee)
	if sum == nil {
		return nil
	}
	var out []string
	for _, r := range sum.Released {
		out = append(out, fr.Loc(r)...)
	}
	return out
}

// setterOwner returns the argument of call whose field the callee stores
// the closure (one of vals) in (a setter storing its parameter in a field of
// another parameter), or nil.
func setterOwner(call *ssa.Call, vals []ssa.Value, field string) ssa.Value {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Blocks == nil {
		return nil
	}
	k := slices.IndexFunc(call.Call.Args, func(v ssa.Value) bool { return slices.Contains(vals, v) })
	if k < 0 || k >= len(callee.Params) {
		return nil
	}
	var owner ssa.Value
	for _, ref := range *callee.Params[k].Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != callee.Params[k] {
			continue
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok {
			return nil
		}
		param, ok := fa.X.(*ssa.Parameter)
		if !ok {
			return nil
		}
		name, _ := lockstate.FieldOf(fa.X.Type(), fa.Field)
		r := slices.Index(callee.Params, param)
		if name != field || r < 0 || r >= len(call.Call.Args) {
			return nil
		}
		owner = call.Call.Args[r]
	}
	return owner
}

// deep returns the lock acquisitions of t's calls through function values
// and interfaces (the summaries see them as unknown code), on t's
// locations: a callback that calls a listener that locks.
func (a *analyzer) deep(t *ssa.Function, depth int) []summary.Acquire {
	if t.Blocks == nil && t.Origin() != nil {
		t = t.Origin()
	}
	if depth > 2 || !a.here(t) {
		return nil
	}
	if a.deepMemo == nil {
		a.deepMemo = map[*ssa.Function][]summary.Acquire{}
	}
	if acqs, ok := a.deepMemo[t]; ok {
		return acqs
	}
	a.deepMemo[t] = nil // cycle guard
	var out []summary.Acquire
	for _, e := range a.effective(a.info(t), 0) {
		if e.anon != nil {
			out = append(out, summary.Acquire{Class: e.anon.Class, Mode: e.anon.Mode, Pos: e.anon.Pos, Where: e.anon.Where, Via: e.origin.Name()})
			continue
		}
		targets := e.targets
		fr := lockstate.Frame{Args: e.args, Binds: e.binds, Cells: e.cells}
		if targets == nil {
			if e.instr == nil || len(e.fnval) == 1 && isParam(e.fnval[0]) {
				continue
			}
			targets = a.dynamic(e.instr)
			fr = lockstate.Frame{Args: e.args}
		}
		for _, u := range targets {
			sum, ufr := a.target(u, fr)
			if sum == nil {
				continue
			}
			for _, acq := range append(slices.Clone(sum.Acquires), a.deep(u, depth+1)...) {
				if acq.Goroutine || len(out) >= maxEntries {
					continue
				}
				out = append(out, inCaller(&ufr, acq, u))
			}
		}
	}
	a.deepMemo[t] = out
	return out
}

// inCaller returns acquisition acq of target t as the caller whose frame
// fr is sees it: its lock named in the caller's terms ("" when the call
// does not name it), no locks held (the caller's are what counts), and
// the target named as the way it happens.
func inCaller(fr *lockstate.Frame, acq summary.Acquire, t *ssa.Function) summary.Acquire {
	ls := fr.Loc(acq.Lock)
	acq.Lock = ""
	if len(ls) == 1 {
		acq.Lock = ls[0]
	}
	acq.Held = nil
	if acq.Via == "" {
		acq.Via = strings.TrimSuffix(t.Name(), "$bound")
	}
	return acq
}
