package testgen

import (
	"fmt"
	"go/types"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// Violations looked for (depcon test -find).
const (
	FindExceptions = "exception" // parallel+conflict dependent pairs, one shared object
	FindDeadlocks  = "deadlock"  // double-lock, RWR and self dependent pairs
	FindAll        = "all"
)

// Pair selections (-pairs).
const (
	PairsDependent = "dependent" // the dependent pairs of the plan (DepCon+)
	PairsAll       = "all"       // every pair, least-covered first (CovCon)
	PairsRandom    = "random"    // random pairs (ConTeGe)
)

// Config configures a Generator.
type Config struct {
	Seed   uint64
	Iters  int    // repetitions of each test
	MaxLen int    // most state-changing calls in a prefix
	Find   string // FindExceptions, FindDeadlocks or FindAll
	Pairs  string // PairsDependent, PairsAll or PairsRandom
}

// A Target is a coverage target: a method pair tested with one or two
// shared objects, or, for a self-deadlock pair, one sequential call.
type Target struct {
	M1, M2  string
	Objects int
	Seq     bool       // run M1 alone, sequentially, watching for a self-deadlock
	Pair    *deps.Pair // the dependent pair; nil for an independent one
}

func (t *Target) String() string {
	if t.Seq {
		return t.M1 + " (sequential)"
	}
	return fmt.Sprintf("%s ∥ %s (%d object%s)", t.M1, t.M2, t.Objects, plural(t.Objects))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// A Case is a generated test of a target.
type Case struct {
	Target *Target
	Test   harness.Test
}

// A Generator generates the tests of one type under test.
type Generator struct {
	s       *Subject
	cfg     Config
	rng     *rand.Rand
	targets []*Target
	cover   map[*Target]int
	pending *Target // the target of the next test, with state changers
	// rank, when set, ranks the targets: the lower go first (see Rank).
	rank func(*Target) int
	// reached holds, by method, the hook sites its traced calls reached;
	// seeds the arguments of calls that reached sites none had before
	// (see Reached).
	reached map[string]map[int]bool
	seeds   map[string][][]harness.Value

	retired  map[*Target]bool // targets no longer tested
	contract *contract        // what the methods' documentation forbids
	excluded map[string]bool  // methods no test may call
	noPrefix map[string]bool  // methods no prefix may call
	ctorOK   map[string]int
	ctorFail map[string]int
	// ctorArgs holds the arguments with which each constructor built an
	// object in a probe; freshNames the constructors whose objects need
	// fresh strings (see build.go).
	ctorArgs   map[string][]workedArgs // fastest first
	freshNames map[string]bool
	configs    int // configurations generated (see valuer.configs)
	// same, while a test's method calls are generated, holds the one
	// literal of each basic kind ("string", "int", "uint") they all
	// use, so that the calls of the test meet on the same keys; nil
	// when the calls draw freely.
	same map[string]string
}

// New returns a generator for subject s. Its random source is seeded
// from cfg.Seed and the type's name, so that the tests of a type do not
// depend on which other types are tested.
func New(s *Subject, cfg Config) *Generator {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s.%s", s.Pkg.Path(), s.Plan.Name)
	g := &Generator{
		s:          s,
		cfg:        cfg,
		rng:        rand.New(rand.NewPCG(cfg.Seed, h.Sum64())),
		cover:      map[*Target]int{},
		retired:    map[*Target]bool{},
		excluded:   map[string]bool{},
		noPrefix:   map[string]bool{},
		ctorOK:     map[string]int{},
		ctorFail:   map[string]int{},
		ctorArgs:   map[string][]workedArgs{},
		freshNames: map[string]bool{},
	}
	g.contract = readContract(s.Docs, s.TypeDoc+"\n"+s.WrappedDoc, s.Names)
	for _, m := range s.Plan.Methods {
		if m.SetUp != "" {
			g.contract.sequential[m.Name] = true // in prefixes only (deps.Method.SetUp)
		}
		if m.LockOff != "" {
			g.excluded[m.Name] = true // never called (deps.Method.LockOff)
		}
		if deps.Teardown(m.Name) {
			g.noPrefix[m.Name] = true // the concurrent calls would use a closed object
		}
	}
	g.contract.extend(s.Plan)
	g.targets = g.makeTargets()
	return g
}

// makeTargets lists the coverage targets of the configuration.
func (g *Generator) makeTargets() []*Target {
	var ts []*Target
	add := func(t *Target) {
		if !t.Seq && !g.contract.allows(t.M1, t.M2) {
			return // the documentation forbids the concurrent calls
		}
		for _, u := range ts {
			if u.M1 == t.M1 && u.M2 == t.M2 && u.Objects == t.Objects && u.Seq == t.Seq {
				return
			}
		}
		ts = append(ts, t)
	}
	exc := g.cfg.Find != FindDeadlocks
	dl := g.cfg.Find != FindExceptions
	if g.cfg.Pairs == PairsDependent {
		for i := range g.s.Plan.Pairs {
			p := &g.s.Plan.Pairs[i]
			if g.s.Methods[p.M1] == nil || g.s.Methods[p.M2] == nil {
				continue
			}
			if exc && p.Has(deps.DepPC) {
				add(&Target{M1: p.M1, M2: p.M2, Objects: 1, Pair: p})
			}
			if dl && p.Has(deps.DepRWR) {
				add(&Target{M1: p.M1, M2: p.M2, Objects: 1, Pair: p})
			}
			if dl && p.Has(deps.DepD) {
				add(&Target{M1: p.M1, M2: p.M2, Objects: p.Objects(), Pair: p})
			}
			if dl && p.Has(deps.DepSelf) {
				add(&Target{M1: p.M1, M2: p.M2, Objects: 1, Seq: true, Pair: p})
			}
		}
		return ts
	}
	objects := []int{1}
	if dl {
		objects = []int{1, 2}
	}
	for i, m1 := range g.s.Names {
		for _, m2 := range g.s.Names[i:] {
			for _, n := range objects {
				add(&Target{M1: m1, M2: m2, Objects: n, Pair: g.s.Plan.Pair(m1, m2)})
			}
		}
	}
	return ts
}

// Forbidden returns what in the type's documentation keeps m1 and m2
// from being called concurrently, or "" (their pair is then tested).
func (g *Generator) Forbidden(m1, m2 string) string { return g.contract.forbids(m1, m2) }

// Targets returns the coverage targets.
func (g *Generator) Targets() []*Target { return g.targets }

// Exclude keeps method m out of all later tests.
func (g *Generator) Exclude(m string) { g.excluded[m] = true }

// NoPrefix keeps method m out of later prefixes.
func (g *Generator) NoPrefix(m string) { g.noPrefix[m] = true }

// CtorResult records whether constructor fn built an object. A
// constructor that failed CtorProbes times and never worked is no longer
// used.
func (g *Generator) CtorResult(fn string, ok bool) {
	if ok {
		g.ctorOK[fn]++
	} else {
		g.ctorFail[fn]++
	}
}

func (g *Generator) ctorDropped(fn string) bool {
	return g.ctorFail[fn] >= CtorProbes && g.ctorOK[fn] == 0
}

// Ctors returns the constructors of the type under test still in use.
func (g *Generator) Ctors() []*Func {
	var fs []*Func
	for _, f := range g.s.Ctors {
		if !g.ctorDropped(f.Name) {
			fs = append(fs, f)
		}
	}
	return fs
}

// Next returns the next test, or nil when every target involves an
// excluded method. Each target gets two tests in a row: one whose prefix
// only constructs the shared objects, and one that appends
// state-changing calls.
func (g *Generator) Next() *Case {
	if t := g.pending; t != nil && g.usable(t) {
		g.pending = nil
		g.cover[t]++
		return g.build(t, true)
	}
	t := g.pick()
	if t == nil {
		return nil
	}
	g.cover[t]++
	g.pending = t
	return g.build(t, false)
}

func (g *Generator) usable(t *Target) bool {
	return !g.retired[t] && !g.excluded[t.M1] && !g.excluded[t.M2]
}

// Usable reports whether target t is still tested: not retired, and
// neither of its methods excluded.
func (g *Generator) Usable(t *Target) bool { return g.usable(t) }

// Tests returns the number of tests of target t so far.
func (g *Generator) Tests(t *Target) int { return g.cover[t] }

// Retire stops testing target t: it exposed a violation already.
func (g *Generator) Retire(t *Target) { g.retired[t] = true }

// Left returns the number of targets not retired.
func (g *Generator) Left() int { return len(g.targets) - len(g.retired) }

// maxSeeds bounds the argument lists kept per method by Reached.
const maxSeeds = 8

// Reached records that call c of a traced test reached the hook sites
// given, and reports whether one of them is new: no traced call of its
// method had reached it. The arguments of such a call are kept, and later
// calls of the method reuse them half the time: arguments that pass a
// method's checks (a valid name, a known dimension) take it to the code
// the others never reach, which the pair's orders need. Arguments naming
// the test's objects or its prefix's results are not kept.
func (g *Generator) Reached(c harness.Call, sites []int) bool {
	seen := g.reached[c.Fn]
	fresh := false
	for _, s := range sites {
		if !seen[s] {
			fresh = true
			break
		}
	}
	if !fresh {
		return false
	}
	if seen == nil {
		if g.reached == nil {
			g.reached, g.seeds = map[string]map[int]bool{}, map[string][][]harness.Value{}
		}
		seen = map[int]bool{}
		g.reached[c.Fn] = seen
	}
	for _, s := range sites {
		seen[s] = true
	}
	for _, a := range c.Args {
		if testBound(a) {
			return true
		}
	}
	if len(g.seeds[c.Fn]) < maxSeeds {
		g.seeds[c.Fn] = append(g.seeds[c.Fn], append([]harness.Value(nil), c.Args...))
	}
	return true
}

// testBound reports whether v refers to a test's own objects or prefix
// results.
func testBound(v harness.Value) bool {
	if v.K == harness.KObj || v.K == harness.KResult {
		return true
	}
	if v.Call != nil {
		for _, a := range v.Call.Args {
			if testBound(a) {
				return true
			}
		}
	}
	for _, e := range v.Elems {
		if testBound(e) {
			return true
		}
	}
	return false
}

// Rank ranks the targets with f: the next target is drawn among those
// of the lowest rank.
func (g *Generator) Rank(f func(*Target) int) { g.rank = f }

// pick returns a random target (PairsRandom) or a random one among the
// least covered, among those of the lowest rank.
func (g *Generator) pick() *Target {
	ranks := map[*Target]int{}
	low := 0
	if g.rank != nil {
		low = math.MaxInt
		for _, t := range g.targets {
			if g.usable(t) {
				ranks[t] = g.rank(t)
				low = min(low, ranks[t])
			}
		}
	}
	var best []*Target
	for _, t := range g.targets {
		if !g.usable(t) || ranks[t] != low {
			continue
		}
		switch {
		case g.cfg.Pairs == PairsRandom || len(best) == 0 || g.cover[t] == g.cover[best[0]]:
			best = append(best, t)
		case g.cover[t] < g.cover[best[0]]:
			best = append(best[:0], t)
		}
	}
	if len(best) == 0 {
		return nil
	}
	return best[g.rng.IntN(len(best))]
}

// build builds a test of target t.
func (g *Generator) build(t *Target, changers bool) *Case {
	test := harness.Test{Type: g.s.Plan.Name, Iters: g.cfg.Iters}
	for i := range t.Objects {
		test.Objects = append(test.Objects, g.object(i))
	}
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
	g.feed(&test)
	return &Case{Target: t, Test: test}
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
func (g *Generator) object(i int) harness.Call {
	fs := g.Ctors()
	if len(fs) == 0 {
		return harness.Call{}
	}
	f := fs[g.rng.IntN(len(fs))]
	others := make([]int, i)
	for j := range others {
		others[j] = j
	}
	return g.ctorCall(f, others)
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

func (g *Generator) valuer(others []int) *valuer {
	return &valuer{s: g.s, rng: g.rng, others: others, dropped: g.ctorDropped, configs: &g.configs}
}

// changers returns the methods a prefix may call: those that write shared
// state according to the plan, or all when none does.
func (g *Generator) changers() []string {
	var all, writers []string
	acc := map[string]int{}
	for _, m := range g.s.Plan.Methods {
		acc[m.Name] = m.Writes
	}
	for _, m := range g.s.Names {
		if g.excluded[m] || g.noPrefix[m] {
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
	ms := g.changers()
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
		return g.contract.order(calls)
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
	return g.contract.order(calls)
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
// fresh object.
//
// A method taking an object of the type (a.Transfer(b, n)) is given a
// second fresh object: passed its own receiver, a method that locks both
// would lock one mutex twice, which says nothing of its calls on two
// objects.
func (g *Generator) MethodProbe(m string) harness.Test {
	if g.s.Linker(m) {
		return harness.Test{Type: g.s.Plan.Name, Objects: []harness.Call{g.object(0), g.object(1)},
			Suffix: []harness.Call{g.call(0, m, []int{1})}}
	}
	return harness.Test{Type: g.s.Plan.Name, Objects: []harness.Call{g.object(0)},
		Suffix: []harness.Call{g.call(0, m, []int{0})}}
}
