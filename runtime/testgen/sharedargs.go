package testgen

import (
	"go/types"
	"maps"
	"slices"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// Objects of other types that both concurrent calls are given: a
// Transfer(from, to *Account) of a Bank deadlocks only when two
// concurrent Transfers name the same two accounts in opposite orders,
// and a Move(x *Item) races only when both calls move the same item.
// Arguments drawn afresh are new objects at every call, so no test would
// ever share one.

// shareObjects makes, in half the tests, the two suffix calls of test
// share the objects they take of other types than the one under test
// (pointers to named types): the first call's arguments of such a type
// become shared values (harness.KShared), which the first call takes in
// its order and the second in the opposite order.
func (g *Generator) shareObjects(test *harness.Test) {
	if len(test.Suffix) != 2 || g.rng.IntN(2) == 0 {
		return
	}
	c0, c1 := &test.Suffix[0], &test.Suffix[1]
	if g.consumes(c0.Fn) || g.consumes(c1.Fn) {
		return // what one call was given, the other may not use
	}
	pos0, pos1 := g.objectParams(c0), g.objectParams(c1)
	for _, key := range slices.Sorted(maps.Keys(pos0)) {
		is, js := pos0[key], pos1[key]
		if len(js) == 0 {
			continue
		}
		var idx []int
		for _, i := range is {
			if built(c0.Args[i]) && !g.callersData(c0, i) {
				test.Shared = append(test.Shared, c0.Args[i])
				idx = append(idx, len(test.Shared)-1)
			}
		}
		if len(idx) == 0 {
			continue
		}
		for k, i := range is {
			c0.Args[i] = harness.Value{K: harness.KShared, Index: idx[k%len(idx)]}
		}
		for k, j := range js {
			c1.Args[j] = harness.Value{K: harness.KShared, Index: idx[len(idx)-1-k%len(idx)]}
		}
	}
}

// consumes reports whether method m's documentation says that what it is
// given must not be used after the call: two calls sharing an argument
// would be a misuse.
func (g *Generator) consumes(m string) bool {
	return contract.Consumes(g.s.Docs[m])
}

// objectParams returns the positions of c's arguments for parameters
// that are pointers to named types other than the type under test, by
// type; a variadic parameter is left out.
func (g *Generator) objectParams(c *harness.Call) map[string][]int {
	sig := g.s.Methods[c.Fn]
	if sig == nil {
		return nil
	}
	out := map[string][]int{}
	n := min(sig.Params().Len(), len(c.Args))
	if sig.Variadic() {
		n = min(n, sig.Params().Len()-1)
	}
	for i := range n {
		t := sig.Params().At(i).Type()
		p, ok := types.Unalias(t).(*types.Pointer)
		if !ok || g.s.isSubject(t) {
			continue
		}
		if _, named := types.Unalias(p.Elem()).(*types.Named); !named {
			continue
		}
		key := types.TypeString(t, nil)
		out[key] = append(out[key], i)
	}
	return out
}

// callersData reports whether argument i of call c is plain data the
// test made for the call, a new zero value or a struct literal of a
// type with no synchronisation: an out-parameter the method fills
// (Stats(t *Stats)) or a buffer. Two concurrent calls given one would
// race on the caller's memory, not on the type's.
func (g *Generator) callersData(c *harness.Call, i int) bool {
	if k := c.Args[i].K; k != harness.KNew && k != harness.KStruct {
		return false
	}
	sig := g.s.Methods[c.Fn]
	if sig == nil || i >= sig.Params().Len() {
		return false
	}
	t := sig.Params().At(i).Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return deps.SyncIn(t, g.s.Pkg) == ""
}

// built reports whether v makes a new object: a constructor's call, a
// new zero value, or a struct.
func built(v harness.Value) bool {
	return v.K == harness.KCall || v.K == harness.KNew || v.K == harness.KStruct
}
