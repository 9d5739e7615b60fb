package testgen

import (
	"fmt"
	"go/types"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/depcon/depcon/analyzers/contract"
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
	rules    *contract.Rules  // what the methods' documentation forbids, and the plan and serving slots add
	excluded map[string]bool  // methods no test may call
	noPrefix map[string]bool  // methods no prefix may call
	// endsUse holds the methods that end the object's use (Close,
	// Release: deps.Teardown): a prefix calls them only before a
	// method that brings the object back (deps.Restart), since the
	// concurrent calls would otherwise use a closed object.
	endsUse  map[string]bool
	ctorOK   map[string]int
	ctorFail map[string]int
	// ctorArgs holds the arguments with which each constructor built an
	// object in a probe; freshNames the constructors whose objects need
	// fresh strings (see build.go).
	ctorArgs   map[string][]workedArgs // fastest first
	freshNames map[string]bool
	configs    int // configurations generated (see valuer.configs)
	// failsOn and worksOn hold, by method, the constructors on whose
	// objects it panicked, and returned (see FailsOn); calling, while a
	// test's objects are built, the methods the test calls.
	failsOn map[string]map[string]bool
	worksOn map[string]map[string]bool
	calling []string
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
		endsUse:    map[string]bool{},
		ctorOK:     map[string]int{},
		ctorFail:   map[string]int{},
		ctorArgs:   map[string][]workedArgs{},
		freshNames: map[string]bool{},
		failsOn:    map[string]map[string]bool{},
		worksOn:    map[string]map[string]bool{},
	}
	g.rules = contract.Read(s.Docs, s.TypeDoc+"\n"+s.WrappedDoc, s.PkgDoc, s.Names)
	for _, m := range s.Plan.Methods {
		if m.SetUp != "" {
			g.rules.Sequential[m.Name] = true // in prefixes only (deps.Method.SetUp)
		}
		if m.LockOff != "" {
			g.excluded[m.Name] = true // never called (deps.Method.LockOff)
		}
		if deps.Teardown(m.Name) {
			g.endsUse[m.Name] = true // in prefixes only before a restart (see changers)
		}
		if servesListener(s.Methods[m.Name]) {
			g.noPrefix[m.Name] = true // it serves until its listener closes
		}
	}
	extendRules(g.rules, s.Plan)
	g.oneServer()
	g.targets = g.makeTargets()
	return g
}

// servesListener reports whether a method of signature sig takes a
// net.Listener: a server's Serve, which serves until the listener is
// closed, is no set-up step; a prefix that served, then returned once
// its listener closed, would test a server serving again.
func servesListener(sig *types.Signature) bool {
	if sig == nil {
		return false
	}
	for i := range sig.Params().Len() {
		if isNamed(sig.Params().At(i).Type(), "net", "Listener") {
			return true
		}
	}
	return false
}

// makeTargets lists the coverage targets of the configuration.
func (g *Generator) makeTargets() []*Target {
	var ts []*Target
	add := func(t *Target) {
		if !t.Seq && !g.rules.Allows(t.M1, t.M2) {
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
func (g *Generator) Forbidden(m1, m2 string) string { return g.rules.Forbids(m1, m2) }

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
			g.reached = map[string]map[int]bool{}
		}
		if g.seeds == nil {
			g.seeds = map[string][][]harness.Value{}
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

// Worked records the arguments of call c, which returned after calls of
// its method with other arguments panicked (a listener that must be a
// function, given a string): later calls of the method reuse them half
// the time, as those of Reached.
func (g *Generator) Worked(c harness.Call) {
	if slices.ContainsFunc(c.Args, testBound) {
		return
	}
	if g.seeds == nil {
		g.seeds = map[string][][]harness.Value{}
	}
	if len(g.seeds[c.Fn]) < maxSeeds {
		g.seeds[c.Fn] = append(g.seeds[c.Fn], append([]harness.Value(nil), c.Args...))
	}
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
