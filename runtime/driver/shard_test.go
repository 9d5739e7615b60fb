package driver

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/testgen"
)

// TestShard checks that the shards partition the selected types, differ
// by at most one type, balance the planned pairs, and do not depend on
// the order the types come in.
func TestShard(t *testing.T) {
	var sel []pkgSubjects
	total := 0
	for p := range 3 {
		ps := pkgSubjects{pkg: &packages.Package{PkgPath: fmt.Sprintf("example.com/p%d", p)}}
		for i := range 5 + p {
			pairs := (i*7 + p*3) % 11
			total += pairs
			ps.subjects = append(ps.subjects, &testgen.Subject{
				Plan: &deps.TypePlan{Name: fmt.Sprintf("T%d", i), Pairs: make([]deps.Pair, pairs)}})
		}
		sel = append(sel, ps)
	}
	names := func(sel []pkgSubjects) (out []string, pairs int) {
		for _, ps := range sel {
			for _, s := range ps.subjects {
				out = append(out, ps.pkg.PkgPath+"."+s.Plan.Name)
				pairs += s.Plan.Dependent()
			}
		}
		return out, pairs
	}
	all, _ := names(sel)
	for _, n := range []int{1, 2, 3, 4, 7, 30} {
		var union []string
		lo, hi := len(all), 0
		minPairs, maxPairs := total, 0
		for k := 1; k <= n; k++ {
			got, pairs := names(shard(sel, k, n))
			union = append(union, got...)
			lo, hi = min(lo, len(got)), max(hi, len(got))
			minPairs, maxPairs = min(minPairs, pairs), max(maxPairs, pairs)
			// The same shard from the packages in another order.
			rev := slices.Clone(sel)
			slices.Reverse(rev)
			again, _ := names(shard(rev, k, n))
			slices.Sort(got)
			slices.Sort(again)
			if !slices.Equal(got, again) {
				t.Errorf("shard %d/%d depends on the order: %v vs %v", k, n, got, again)
			}
		}
		slices.Sort(union)
		want := slices.Sorted(slices.Values(all))
		if !slices.Equal(union, want) {
			t.Errorf("%d shards: union %v, want %v", n, union, want)
		}
		if hi-lo > 1 {
			t.Errorf("%d shards: from %d to %d types", n, lo, hi)
		}
		if n <= 4 && maxPairs-minPairs > 10 {
			t.Errorf("%d shards: pairs from %d to %d", n, minPairs, maxPairs)
		}
	}
}
