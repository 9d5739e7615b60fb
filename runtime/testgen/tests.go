package testgen

import (
	"go/types"
	"slices"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// build builds a test of target t.
func (g *Generator) build(t *Target, changers bool) *Case {
	test := harness.Test{Type: g.s.Plan.Name, Iters: g.cfg.Iters}
	g.calling = []string{t.M1, t.M2}
	for i := range t.Objects {
		test.Objects = append(test.Objects, g.object(i))
	}
	g.calling = nil
	// Every other test, the method calls share their keys: a map bug
	// needs a Remove of the key a Put added.
	g.same = nil
	if g.rng.IntN(2) == 0 {
		keys := stringLits[1:]
		if lits := g.s.literals(); len(lits) > 0 && g.rng.IntN(3) == 0 {
			keys = lits
		}
		g.same = map[string]string{
			"string": keys[g.rng.IntN(len(keys))],
			"int":    signedLits[1+g.rng.IntN(4)],
			"uint":   unsignedLits[1+g.rng.IntN(4)],
		}
	}
	defer func() { g.same = nil }()
	if changers {
		test.Prefix = g.prefix(t)
	}
	switch {
	case t.Seq:
		c := g.call(0, t.M1, []int{0})
		if k := g.cover[t] - 1; k < g.Variants(t) {
			g.variant(&c, k)
		}
		test.Suffix = []harness.Call{c}
	case t.Objects == 2:
		test.Suffix = []harness.Call{g.call(0, t.M1, []int{1}), g.call(1, t.M2, []int{0})}
	default:
		test.Suffix = []harness.Call{g.call(0, t.M1, []int{0}), g.call(0, t.M2, []int{0})}
	}
	g.share(&test)
	g.shareObjects(&test)
	g.feed(&test)
	if !t.Seq {
		g.leaving(&test)
	}
	return &Case{Target: t, Test: test}
}

// leaving makes the background contexts and the signal channels (of
// empty structs) the concurrent calls of test take end once one of the
// two calls has returned (harness.CtxLeave, harness.ChanLeave): a
// Run(ctx), Serve(ctx) or Poll(quit) that works until its context ends
// or its quit channel is closed returns then, as in a user's test that
// ends it once done with the other call.
func (g *Generator) leaving(test *harness.Test) {
	for k, c := range test.Suffix {
		sig := g.s.Methods[c.Fn]
		for i, a := range c.Args {
			switch {
			case a.K == harness.KCtx && a.Lit == "":
				test.Suffix[k].Args[i].Lit = harness.CtxLeave
			case a.K == harness.KChan && sig != nil && i < sig.Params().Len() && signalChan(sig.Params().At(i).Type()):
				test.Suffix[k].Args[i].Lit = harness.ChanLeave
			}
		}
	}
}

// signalChan reports whether t is a channel of empty structs, whose
// only news is that it is closed.
func signalChan(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// share gives parameters of the suffix calls of test, each with an even
// chance, an argument that a prefix call passed for a parameter of the
// same type: the key a Register put in the prefix is the one both
// concurrent Adds then name (a lost update on one key), as a user's
// calls do. Both calls drawing from the few values of the prefix, they
// often meet on one.
func (g *Generator) share(test *harness.Test) {
	pool := map[string][]harness.Value{}
	for _, c := range test.Prefix {
		sig := g.s.Methods[c.Fn]
		if sig == nil {
			continue
		}
		for i := range min(sig.Params().Len(), len(c.Args)) {
			if a := c.Args[i]; a.K == harness.KLit && (!sig.Variadic() || i != sig.Params().Len()-1) {
				key := types.TypeString(sig.Params().At(i).Type(), nil)
				pool[key] = append(pool[key], a)
			}
		}
	}
	if len(pool) == 0 {
		return
	}
	for k := range test.Suffix {
		c := &test.Suffix[k]
		sig := g.s.Methods[c.Fn]
		if sig == nil {
			continue
		}
		for i := range min(sig.Params().Len(), len(c.Args)) {
			vs := pool[types.TypeString(sig.Params().At(i).Type(), nil)]
			if len(vs) > 0 && c.Args[i].K == harness.KLit && g.rng.IntN(2) == 0 {
				c.Args[i] = vs[g.rng.IntN(len(vs))]
			}
		}
	}
}

// object returns the call that constructs shared object i: a random
// constructor still in use, or the zero value when there is none.
// Earlier objects may be passed to it.
func (g *Generator) object(i int) harness.Call { return g.newObject(i, false) }

// freshObject is object with arguments drawn afresh, not those of an
// earlier probe that built one.
func (g *Generator) freshObject(i int) harness.Call { return g.newObject(i, true) }

// newObject returns the call that constructs shared object i (see
// ctorCall).
func (g *Generator) newObject(i int, fresh bool) harness.Call {
	fs := g.workingCtors(g.Ctors())
	if len(fs) == 0 {
		return g.literal()
	}
	f := fs[g.rng.IntN(len(fs))]
	others := make([]int, i)
	for j := range others {
		others[j] = j
	}
	return g.ctorCall(f, others, fresh)
}

// call returns a call of method m on object recv; parameters of the type
// under test get one of others.
func (g *Generator) call(recv int, m string, others []int) harness.Call {
	if seeds := g.seeds[m]; len(seeds) > 0 && g.rng.IntN(2) == 0 {
		args := seeds[g.rng.IntN(len(seeds))]
		return harness.Call{Recv: recv, Fn: m, Args: append([]harness.Value(nil), args...)}
	}
	return g.fresh(recv, m, others)
}

// fresh returns a call of m on object recv with arguments drawn afresh.
func (g *Generator) fresh(recv int, m string, others []int) harness.Call {
	v := g.valuer(others)
	v.same = g.same
	c := harness.Call{Recv: recv, Fn: m, Args: v.args(g.s.Methods[m], 0)}
	g.compared(&c)
	return c
}

// nonNilCall returns a call of m on object recv whose pointer, map and
// interface arguments are not nil where another value fits, and whose
// arguments are not the values m compares them with: a probe retried
// after a failure.
func (g *Generator) nonNilCall(recv int, m string, others []int, funcs bool) harness.Call {
	v := g.valuer(others)
	v.nonNil, v.funcs = true, funcs
	return harness.Call{Recv: recv, Fn: m, Args: v.args(g.s.Methods[m], 0)}
}

func (g *Generator) valuer(others []int) *valuer {
	return &valuer{s: g.s, rng: g.rng, others: others, dropped: g.ctorDropped, configs: &g.configs}
}

// changers returns the methods a prefix of a test of t may call: those
// that write shared state according to the plan, or all when none does;
// those that end the object's use only when t's pair brings it back.
func (g *Generator) changers(t *Target) []string {
	restarts := t != nil && (deps.Restart(t.M1) || deps.Restart(t.M2))
	var all, writers []string
	acc := map[string]int{}
	for _, m := range g.s.Plan.Methods {
		acc[m.Name] = m.Writes
	}
	for _, m := range g.s.Names {
		if g.excluded[m] || g.noPrefix[m] || g.endsUse[m] && !restarts {
			continue
		}
		all = append(all, m)
		if acc[m] > 0 {
			writers = append(writers, m)
		}
	}
	if len(writers) > 0 {
		return writers
	}
	return all
}

// conflicting reports whether m is dependent on m1 or m2 of t, or is one
// of them: a prefix call that changes what the suffixes read.
func (g *Generator) conflicting(t *Target, m string) bool {
	return m == t.M1 || m == t.M2 || g.s.Plan.Pair(m, t.M1) != nil || g.s.Plan.Pair(m, t.M2) != nil
}

// prefix returns 1..MaxLen state-changing calls, at least one of them
// conflicting with the suffixes when such a method exists. With two
// objects it starts with a symmetric linking pair a.L(b), b.L(a) when
// some method takes the type under test.
func (g *Generator) prefix(t *Target) []harness.Call {
	ms := g.changers(t)
	if len(ms) == 0 {
		return nil
	}
	n := 1 + g.rng.IntN(max(g.cfg.MaxLen, 1))
	var calls []harness.Call
	if t.Objects == 2 {
		var linkers []string
		for _, m := range ms {
			if g.s.Linker(m) {
				linkers = append(linkers, m)
			}
		}
		if len(linkers) > 0 {
			c := g.call(0, linkers[g.rng.IntN(len(linkers))], []int{1})
			mirror := harness.Call{Recv: 1, Fn: c.Fn, Args: swapObjects(c.Args)}
			calls = append(calls, c, mirror)
		}
	}
	for len(calls) < n {
		recv := g.rng.IntN(t.Objects)
		calls = append(calls, g.call(recv, ms[g.rng.IntN(len(ms))], []int{(recv + 1) % t.Objects}))
	}
	if slices.ContainsFunc(calls, func(c harness.Call) bool { return g.conflicting(t, c.Fn) }) {
		return sequentialFirst(g.rules, calls)
	}
	var conf []string
	for _, m := range ms {
		if g.conflicting(t, m) {
			conf = append(conf, m)
		}
	}
	if len(conf) > 0 {
		i := g.rng.IntN(len(calls))
		recv := calls[i].Recv
		calls[i] = g.call(recv, conf[g.rng.IntN(len(conf))], []int{(recv + 1) % t.Objects})
	}
	return sequentialFirst(g.rules, calls)
}

// swapObjects returns vs with shared objects 0 and 1 swapped.
func swapObjects(vs []harness.Value) []harness.Value {
	if vs == nil {
		return nil
	}
	out := make([]harness.Value, len(vs))
	for i, v := range vs {
		if v.K == harness.KObj {
			v.Obj = 1 - v.Obj
		}
		v.Elems = swapObjects(v.Elems)
		if v.Call != nil {
			c := *v.Call
			c.Args = swapObjects(c.Args)
			v.Call = &c
		}
		out[i] = v
	}
	return out
}

// ArgProbe returns a test that calls method m twice on a fresh object,
// with arguments drawn afresh; traced (OpTrace), it tells which hook
// sites each draw reaches (see Reached). It returns false for a method
// no test may call.
func (g *Generator) ArgProbe(m string) (harness.Test, bool) {
	if g.excluded[m] {
		return harness.Test{}, false
	}
	objs, others := []harness.Call{g.object(0)}, []int{0}
	if g.s.Linker(m) { // as for MethodProbe
		objs, others = append(objs, g.object(1)), []int{1}
	}
	return harness.Test{Type: g.s.Plan.Name, Objects: objs,
		Suffix: []harness.Call{g.fresh(0, m, others), g.fresh(0, m, others)}}, true
}

// MethodProbe returns a sequential test that calls method m once on a
// fresh object, at its retry-th attempt (from 0). A probe retried after
// a failure builds the object with fresh arguments and passes m no nil
// that another value can replace; the first retry passes a function
// for an interface{} (a listener kept as an interface{} must be one).
//
// A method taking an object of the type (a.Transfer(b, n)) is given a
// second fresh object: passed its own receiver, a method that locks both
// would lock one mutex twice, which says nothing of its calls on two
// objects.
func (g *Generator) MethodProbe(m string, retry int) harness.Test {
	object, call := g.object, g.call
	if retry > 0 {
		object = g.freshObject
		call = func(recv int, m string, others []int) harness.Call { return g.nonNilCall(recv, m, others, retry == 1) }
	}
	g.calling = []string{m}
	defer func() { g.calling = nil }()
	if g.s.Linker(m) {
		return harness.Test{Type: g.s.Plan.Name, Objects: []harness.Call{object(0), object(1)},
			Suffix: []harness.Call{call(0, m, []int{1})}}
	}
	return harness.Test{Type: g.s.Plan.Name, Objects: []harness.Call{object(0)},
		Suffix: []harness.Call{call(0, m, []int{0})}}
}
