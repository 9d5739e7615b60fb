package testgen

import (
	"maps"
	"slices"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// extendRules applies each ordering "m must happen before X" of r to the
// methods that change the same state as m (those that write and are
// dependent on m through a conflict): they are bound by the same
// contract, though only m's documentation may say so ("The first call to
// Go must happen before a Wait" binds TryGo too). A method that ends the
// object's use is ordered after every method it conflicts with (a Wait
// that closes the channel Go sends on); one after which no call may
// follow, after the methods that do not synchronise at all.
func extendRules(r *contract.Rules, plan *deps.TypePlan) {
	writes := map[string]bool{}
	for _, m := range plan.Methods {
		writes[m.Name] = m.Writes > 0
	}
	for key, phrase := range maps.Clone(r.Ordered) {
		before := contract.BeforeNamed(phrase)
		if before == "" {
			continue // a warning of races names its methods itself
		}
		documented, named := key[0], key[1]
		if before != named {
			documented, named = named, documented
		}
		for _, other := range plan.Methods {
			p := plan.Pair(documented, other.Name)
			if other.Name != named && writes[other.Name] && p != nil && p.Has(deps.DepPC) {
				r.Ordered[contract.PairKey(other.Name, named)] = phrase
			}
		}
	}
	for m, phrase := range r.Last {
		for _, other := range plan.Methods {
			if p := plan.Pair(m, other.Name); other.Name != m && p != nil && p.Has(deps.DepPC) {
				r.Ordered[contract.PairKey(m, other.Name)] = phrase
			}
		}
	}
	for m, phrase := range r.Final {
		for _, other := range plan.Methods {
			if other.Name != m && other.Unsynchronised {
				r.Ordered[contract.PairKey(m, other.Name)] = phrase
			}
		}
	}
}

// sequentialFirst moves the calls of methods that must not run
// concurrently with anything (r.Sequential) to the front of a prefix,
// before the calls that may leave goroutines running ("the limit must
// not be modified while any goroutines in the group are active").
func sequentialFirst(r *contract.Rules, calls []harness.Call) []harness.Call {
	if r == nil || len(r.Sequential) == 0 {
		return calls
	}
	slices.SortStableFunc(calls, func(a, b harness.Call) int {
		switch sa, sb := r.Sequential[a.Fn], r.Sequential[b.Fn]; {
		case sa && !sb:
			return -1
		case !sa && sb:
			return 1
		}
		return 0
	})
	return calls
}
