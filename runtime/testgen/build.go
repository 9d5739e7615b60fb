package testgen

import (
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// Construction that learns from failure (feedback-directed, as Randoop
// and EvoSuite seed their generators): a constructor's probes that fail
// steer its next arguments, and the arguments of a probe that built an
// object are the ones later objects are built with, most of the time.
//
//   - The first probes draw arguments as any call does. The later ones
//     grow: every integer is a power of two, 8 at the fourth probe, 64 at
//     the fifth, 512 at the sixth (a size that must be at least 2,
//     several numbers that must agree), every bool is true, and every
//     string is fresh.
//   - A constructor that fails when called a second time with the same
//     arguments (a registry refusing a duplicate name) is probed once
//     more with fresh strings for the second object; when that works,
//     its objects always get fresh strings.

// CtorProbes is how many probes a constructor gets before it is dropped.
const CtorProbes = 6

// growFrom is the first probe whose arguments grow.
const growFrom = 3

// CtorProbe returns a sequential test that builds two objects with
// constructor f (nil: the literal of a type without one), at its attempt-th probe (from
// 0): twice with the same arguments, since a constructor that changes
// process-wide state (a registration on a default mux, a global
// registry) fails the second time, and cannot give a test fresh objects.
// With fresh set, the second object gets fresh strings instead (see
// FreshStrings).
func (g *Generator) CtorProbe(f *Func, attempt int, fresh bool) harness.Test {
	c := g.literal()
	if f != nil {
		v := g.valuer(nil)
		if attempt >= growFrom {
			v.grow = attempt - growFrom + 1
			v.freshNames = true
		}
		c = harness.Call{Fn: f.Name, Args: g.withPeers(f, v.args(f.Sig, 1))}
	}
	second := c
	if fresh && f != nil {
		second = harness.Call{Fn: c.Fn, Args: g.freshStrings(f.Sig, c.Args)}
	}
	return harness.Test{Type: g.s.Plan.Name, Objects: []harness.Call{c, second}}
}

// DropCtor stops using constructor fn.
func (g *Generator) DropCtor(fn string) { g.ctorFail[fn] = max(g.ctorFail[fn], CtorProbes) }

// FreshStrings makes constructor fn's objects always get fresh strings:
// it fails when called twice with the same ones.
func (g *Generator) FreshStrings(fn string) { g.freshNames[fn] = true }

// CtorWorked records the arguments with which the constructor of a
// probe built an object, and how long the probe took: later objects are
// built with the fastest of them, most of the time (a constructor given
// a second-long interval that every call then waits for would leave a
// few tests in the budget).
func (g *Generator) CtorWorked(c harness.Call, took time.Duration) {
	if c.Fn == "" {
		return
	}
	g.CtorResult(c.Fn, true)
	known := g.ctorArgs[c.Fn]
	i := 0
	for i < len(known) && known[i].took <= took {
		i++
	}
	g.ctorArgs[c.Fn] = slices.Insert(known, i, workedArgs{c.Args, took})
}

// ObjectWorks records that the object c built is one a method works on,
// where the objects of the arguments known so far failed it: its
// arguments come first from now on.
func (g *Generator) ObjectWorks(c harness.Call) {
	if c.Fn == "" {
		return
	}
	g.CtorResult(c.Fn, true)
	g.ctorArgs[c.Fn] = slices.Insert(slices.DeleteFunc(g.ctorArgs[c.Fn], func(w workedArgs) bool {
		return reflect.DeepEqual(w.args, c.Args)
	}), 0, workedArgs{args: c.Args})
}

// FailsOn records that method m panicked on an object that constructor
// fn built, and WorksOn that it returned on one: once a method has done
// both, the tests that call it build their objects with the constructors
// it worked on (a Get that needs the loader only NewLoadingCache sets
// fails on the caches New builds). A failure alone may be its
// arguments'.
func (g *Generator) FailsOn(m, fn string) { mark(g.failsOn, m, fn) }

// WorksOn: see FailsOn.
func (g *Generator) WorksOn(m, fn string) { mark(g.worksOn, m, fn) }

func mark(set map[string]map[string]bool, m, fn string) {
	if fn == "" {
		return
	}
	if set[m] == nil {
		set[m] = map[string]bool{}
	}
	set[m][fn] = true
}

// workingCtors returns the constructors of fs that every method being
// called (calling) that failed on some constructor's objects worked on,
// or fs when there is none.
func (g *Generator) workingCtors(fs []*Func) []*Func {
	var out []*Func
	for _, f := range fs {
		if !slices.ContainsFunc(g.calling, func(m string) bool {
			return len(g.failsOn[m]) > 0 && len(g.worksOn[m]) > 0 && !g.worksOn[m][f.Name]
		}) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return fs
	}
	return out
}

// ForgetObjects drops the arguments of the constructor calls objs from
// those known to build working objects (see CtorWorked): an object built
// with them ended the process from a goroutine of its own (a zero
// interval its ticker refuses). It reports whether it dropped any.
func (g *Generator) ForgetObjects(objs []harness.Call) bool {
	dropped := false
	for _, c := range objs {
		if c.Fn == "" {
			continue
		}
		n := len(g.ctorArgs[c.Fn])
		g.ctorArgs[c.Fn] = slices.DeleteFunc(g.ctorArgs[c.Fn], func(w workedArgs) bool {
			return reflect.DeepEqual(w.args, c.Args)
		})
		dropped = dropped || len(g.ctorArgs[c.Fn]) < n
	}
	return dropped
}

// workedArgs are the arguments of a constructor's probe that built an
// object, and how long the probe took.
type workedArgs struct {
	args []harness.Value
	took time.Duration
}

// ctorCall returns the call of constructor f for an object, earlier
// objects others: with the arguments of the fastest probe that worked,
// three times in four when there are some and fresh is not set (a probe
// retried after its method panicked wants others), fresh strings in them
// when f needs them.
func (g *Generator) ctorCall(f *Func, others []int, fresh bool) harness.Call {
	if known := g.ctorArgs[f.Name]; len(known) > 0 && !fresh && g.rng.IntN(4) != 0 {
		args := append([]harness.Value(nil), known[0].args...)
		if g.freshNames[f.Name] {
			args = g.freshStrings(f.Sig, args)
		}
		return harness.Call{Fn: f.Name, Args: args}
	}
	v := g.valuer(others)
	v.freshNames = g.freshNames[f.Name]
	return harness.Call{Fn: f.Name, Args: g.withPeers(f, v.args(f.Sig, 1))}
}

// freshStrings returns args with each string literal for a string
// parameter of sig replaced by a fresh string (harness.KFresh).
func (g *Generator) freshStrings(sig *types.Signature, args []harness.Value) []harness.Value {
	out := append([]harness.Value(nil), args...)
	for i := range min(sig.Params().Len(), len(out)) {
		b, ok := sig.Params().At(i).Type().Underlying().(*types.Basic)
		if ok && b.Info()&types.IsString != 0 && out[i].K == harness.KLit {
			out[i] = harness.Value{K: harness.KFresh, Lit: "depcon"}
		}
	}
	return out
}

// grown returns the value of a basic type for a growing probe (see
// CtorProbe) or a fresh string, and whether it has one: numbers and
// bools only when the valuer grows, strings only when it wants fresh
// ones.
func (v *valuer) grown(b *types.Basic) (harness.Value, bool) {
	info := b.Info()
	if info&types.IsString != 0 {
		return harness.Value{K: harness.KFresh, Lit: "depcon"}, v.freshNames
	}
	if v.grow <= 0 {
		return harness.Value{}, false
	}
	switch {
	case info&types.IsBoolean != 0:
		return harness.Value{K: harness.KLit, Lit: "true"}, true
	case info&(types.IsInteger|types.IsFloat) != 0:
		return harness.Value{K: harness.KLit, Lit: strconv.Itoa(1 << (3 * v.grow))}, true
	}
	return harness.Value{}, false
}

// Variants returns how many compared values (Subject.Compared) the
// tests of target t try one by one before any other argument: those of
// the method of a self pair with a static diagnostic (a lock taken again
// on the path where a name is empty), none for other targets. Such a
// target is not saturated before it has had them.
func (g *Generator) Variants(t *Target) int {
	if !t.Seq || !g.diagnosed(t) {
		return 0
	}
	n := 0
	for _, vs := range g.s.Compared[t.M1] {
		n += len(vs)
	}
	return n
}

// diagnosed reports whether the plan's pair of target t has a static
// self-deadlock or read-write-read evidence.
func (g *Generator) diagnosed(t *Target) bool {
	p := g.s.Plan.Pair(t.M1, t.M2)
	return p != nil && (p.Has(deps.DepSelf) || p.Has(deps.DepRWR))
}

// variant sets, in the k-th test of a target with Variants, one
// parameter of call c to the k-th compared value.
func (g *Generator) variant(c *harness.Call, k int) {
	byParam := g.s.Compared[c.Fn]
	for p := 0; p < len(c.Args); p++ {
		vs := byParam[p]
		if k < len(vs) {
			c.Args[p] = vs[k]
			return
		}
		k -= len(vs)
	}
}

// compared sets, once in three calls, one parameter of call c that its
// method compares with values to one of them.
func (g *Generator) compared(c *harness.Call) {
	byParam := g.s.Compared[c.Fn]
	if len(byParam) == 0 || g.rng.IntN(3) != 0 {
		return
	}
	var ps []int
	for p := range byParam {
		if p < len(c.Args) && c.Args[p].K != harness.KObj {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return
	}
	slices.Sort(ps)
	p := ps[g.rng.IntN(len(ps))]
	vs := byParam[p]
	c.Args[p] = vs[g.rng.IntN(len(vs))]
}
