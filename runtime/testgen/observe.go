package testgen

import (
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// maxObservers bounds the observer calls made on each shared object.
const maxObservers = 4

// Lin returns how the linearizability oracle takes the outcome of the
// concurrent test: the suffix calls' results and those of the observers
// (see Observers). It returns nil when the outcome depends on timing by
// design, so that no sequential order can be its measure: a suffix call
// given a deadline (a context that times out, a time.Duration or
// time.Time parameter), named Try..., by Go's convention a call that may
// give up when it meets contention, or giving up when a compare-and-swap
// fails (deps.Method.GivesUp), documented as inexact, passed its
// own receiver (see PassesOwn), or a method that runs a function it is
// given between critical sections (deps.Method.CallsOut: the caller's
// code runs in its middle, by design). The
// results of a suffix call that counts events (see eventStatRE) are not
// compared.
func (g *Generator) Lin(test harness.Test) *harness.Lin {
	if g.clocked(test) {
		return nil
	}
	lin := &harness.Lin{Observers: g.Observers(test)}
	for i, c := range test.Suffix {
		if strings.HasPrefix(c.Fn, "Try") || g.givesUp(c.Fn) || g.timed(c) || g.inexact(c.Fn) || PassesOwn(c) || g.callsOut(c.Fn) {
			return nil
		}
		lin.SkipResults[i] = eventStatRE.MatchString(c.Fn) || displayRE.MatchString(c.Fn)
	}
	return lin
}

// givesUp reports whether method m returns false as soon as a
// compare-and-swap fails (deps.Method.GivesUp): a Try... method by
// another name.
func (g *Generator) givesUp(m string) bool {
	pm := g.s.Plan.Method(m)
	return pm != nil && pm.GivesUp
}

// callsOut reports whether method m runs a function it is given between
// critical sections (deps.Method.CallsOut).
func (g *Generator) callsOut(m string) bool {
	pm := g.s.Plan.Method(m)
	return pm != nil && pm.CallsOut
}

// eventStatRE matches the names of methods that count or rate what calls
// did inside (HitCount, MissCount, LookupCount, HitRate): two concurrent
// misses of one key may both count, by design, so they are not observers
// and their results are not compared; nor are counts of what is in
// progress (Running, RunningWorkers, Waiting, WaitingTasks, Free) or of
// what workers have finished (CompletedTasks, SuccessfulTasks,
// FailedTasks, CanceledTasks), which a worker finishing changes after the
// call that submitted the work returned. A snapshot of the state (Stats,
// Len) is.
var eventStatRE = regexp.MustCompile(`^(?:Hit|Miss|Lookup|Request|Eviction|Load|Access|Get|Set)\w*(?:Count|Rate|Ratio)$|` +
	`^(?:Hits|Misses|Lookups|Evictions)$|(?:Rate|Ratio)$|^(?:Running|Active|Waiting|Busy|Idle|Free)(?:[A-Z]\w*)?$|` +
	`^(?:Completed|Successful|Failed|Canceled|Cancelled)[A-Z]\w*$`)

// displayRE matches the names of the methods that render the object
// for people (fmt.Stringer's String, GoString): what they print may be
// assembled from several critical sections, a display and no state the
// oracle compares; their races are still found.
var displayRE = regexp.MustCompile(`^(?:String|GoString)$`)

// inexact reports whether the documentation of method m says its result
// or effect is not exact (see contract.Inexact): the oracle has no measure for
// it.
func (g *Generator) inexact(m string) bool {
	return contract.Inexact(g.s.Docs[m])
}

// PassesOwn reports whether call c passes its receiver to itself
// (a.Equal(a), a.CopyFrom(a)): an object that is both sides of a
// comparison or a copy, while another call changes it, is a degenerate
// use, not an outcome a maintainer would call wrong.
func PassesOwn(c harness.Call) bool {
	return slices.ContainsFunc(c.Args, func(a harness.Value) bool { return holdsObj(a, c.Recv) })
}

// holdsObj reports whether value v is the shared object obj or holds it:
// as an element of a slice or struct (a variadic []Collector{a}), or as
// an argument of the constructor call that makes v.
func holdsObj(v harness.Value, obj int) bool {
	if v.K == harness.KObj && v.Obj == obj {
		return true
	}
	if slices.ContainsFunc(v.Elems, func(e harness.Value) bool { return holdsObj(e, obj) }) {
		return true
	}
	return v.Call != nil && slices.ContainsFunc(v.Call.Args, func(e harness.Value) bool { return holdsObj(e, obj) })
}

// timed reports whether call c takes a deadline or a duration, or a
// value that another call's return ends.
func (g *Generator) timed(c harness.Call) bool {
	sig := g.s.Methods[c.Fn]
	if sig == nil {
		return true
	}
	for _, a := range c.Args {
		// A context that times out, or one already cancelled (a select
		// on its Done and another channel picks either at random); a
		// listener or a request that ends when the other call returns
		// (a Serve that the other call's Close stops has no sequential
		// order: alone, it serves until a timer ends it).
		if a.K == harness.KCtx && a.Lit != "" || a.K == harness.KListener || a.K == harness.KRequest {
			return true
		}
	}
	for i := range sig.Params().Len() {
		if fromPackage(sig.Params().At(i).Type(), "time") {
			return true
		}
	}
	return false
}

// clocked reports whether the objects or the prefix of test are made
// with a deadline: a context that times out (or is cancelled), or a
// duration under a second (an expiry, a timeout, an interval). Their
// state then changes with time as well as with the calls: the
// sequential orders, run at other moments, may find them expired where
// the concurrent calls did not (a pool whose context ended, an entry
// set to expire after a millisecond), which is no interleaving's doing.
func (g *Generator) clocked(test harness.Test) bool {
	for _, c := range test.Objects {
		if c.Fn != "" && g.callClocked(g.funcSig(c.Fn), c.Args) {
			return true
		}
	}
	for _, c := range test.Prefix {
		if g.callClocked(g.s.Methods[c.Fn], c.Args) {
			return true
		}
	}
	return false
}

// funcSig returns the signature of the registered function fn, nil if
// unknown.
func (g *Generator) funcSig(fn string) *types.Signature {
	if f := g.s.Funcs[fn]; f != nil {
		return f.Sig
	}
	return nil
}

// callClocked reports whether a call of signature sig (nil if unknown)
// with args passes a deadline, directly or to a call in its arguments.
func (g *Generator) callClocked(sig *types.Signature, args []harness.Value) bool {
	for i, a := range args {
		switch {
		case a.K == harness.KCtx && a.Lit != "":
			return true
		case a.K == harness.KCall && a.Call != nil && g.callClocked(g.funcSig(a.Call.Fn), a.Call.Args):
			return true
		case a.K == harness.KLit && sig != nil && i < sig.Params().Len() &&
			isNamed(types.Unalias(sig.Params().At(i).Type()), "time", "Duration"):
			if n, err := strconv.ParseInt(a.Lit, 10, 64); err == nil && n > 0 && n < int64(time.Second) {
				return true
			}
		}
		if g.callClocked(nil, a.Elems) {
			return true
		}
	}
	return false
}

// fromPackage reports whether t, or the element of a pointer or slice t,
// is a named type of the package path.
func fromPackage(t types.Type, path string) bool {
	for {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		case *types.Named:
			return u.Obj().Pkg() != nil && u.Obj().Pkg().Path() == path
		}
		return false
	}
}

// Observers returns the calls that read the state of the shared objects
// of test after its suffixes: on each object, the methods that the plan
// says read shared state and write none, that return something and do
// not wait (Wait..., Done), at most maxObservers, those without
// parameters first. A parameter is given the argument a suffix call
// passes for a parameter of the same type (Get(k) after Set(k, v)); a
// method with a parameter no suffix call fills is left out.
func (g *Generator) Observers(test harness.Test) []harness.Call {
	type cand struct {
		name string
		args []harness.Value
	}
	var cands []cand
	for _, m := range g.s.Plan.Methods {
		sig := g.s.Methods[m.Name]
		if sig == nil || m.Writes > 0 || m.Accesses == 0 || g.excluded[m.Name] || g.inexact(m.Name) || g.s.Clock[m.Name] ||
			eventStatRE.MatchString(m.Name) || displayRE.MatchString(m.Name) || sig.Variadic() ||
			sig.Results().Len() == 0 || strings.HasPrefix(m.Name, "Wait") || m.Name == "Done" {
			continue
		}
		if !revealing(sig.Results()) || !g.determined(m, test) {
			continue
		}
		args, ok := g.observerArgs(sig, test)
		if !ok {
			continue
		}
		cands = append(cands, cand{m.Name, args})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return len(a.args) - len(b.args) })
	if len(cands) > maxObservers {
		cands = cands[:maxObservers]
	}
	var out []harness.Call
	for recv := range test.Objects {
		for _, c := range cands {
			out = append(out, harness.Call{Recv: recv, Fn: c.name, Args: c.args})
		}
	}
	return out
}

// determined reports whether what observer m reads may depend on the
// suffix calls of test: some location it reads is one a suffix method
// writes. An observer of what only other methods write (a counter that a
// maintenance goroutine started by the constructor updates, the
// statistics of an expiry) reads the same in every order of the two
// calls, or what goroutines and the clock make of it: the oracle has no
// measure for it. A summary cut at its size limit may have lost
// locations: such methods are taken to overlap.
func (g *Generator) determined(m deps.Method, test harness.Test) bool {
	if m.Truncated || len(m.ReadLocs) == 0 {
		return true
	}
	for _, c := range test.Suffix {
		pm := g.s.Plan.Method(c.Fn)
		if pm == nil || pm.Truncated || deps.Overlaps(m.ReadLocs, pm.WriteLocs) {
			return true
		}
	}
	return false
}

// revealing reports whether some result is a value the oracle compares:
// not only pointers, channels and functions, which it sees as nil or
// non-nil.
func revealing(res *types.Tuple) bool {
	for i := range res.Len() {
		switch types.Unalias(res.At(i).Type()).Underlying().(type) {
		case *types.Pointer, *types.Chan, *types.Signature:
		default:
			return true
		}
	}
	return false
}

// observerArgs returns the arguments of an observer of signature sig: for
// each parameter, one a suffix call of test passes for a parameter of an
// identical type.
func (g *Generator) observerArgs(sig *types.Signature, test harness.Test) ([]harness.Value, bool) {
	var args []harness.Value
	for i := range sig.Params().Len() {
		pt := sig.Params().At(i).Type()
		found := false
		for _, c := range test.Suffix {
			csig := g.s.Methods[c.Fn]
			if csig == nil || csig.Variadic() {
				continue
			}
			for j := range min(csig.Params().Len(), len(c.Args)) {
				if types.Identical(csig.Params().At(j).Type(), pt) && c.Args[j].K != harness.KObj {
					args = append(args, c.Args[j])
					found = true
					break
				}
			}
			if found {
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return args, true
}
