package driver

import (
	"cmp"
	"slices"
)

// shard returns the k-th of n shares (1-based) of the selected types. The
// share of a type depends only on the set of selected types, so it is
// the same on every machine: the types are ordered by planned pairs
// (most first, then by package and name) and dealt to the shards in a
// snake order (1..n, n..1, ...), so that the shards' numbers of types
// differ by at most one and their pairs are balanced.
func shard(sel []pkgSubjects, k, n int) []pkgSubjects {
	type item struct {
		pkg, typ string
		pairs    int
	}
	var items []item
	for _, ps := range sel {
		for _, s := range ps.subjects {
			items = append(items, item{ps.pkg.PkgPath, s.Plan.Name, s.Plan.Dependent()})
		}
	}
	slices.SortFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(b.pairs, a.pairs), cmp.Compare(a.pkg, b.pkg), cmp.Compare(a.typ, b.typ))
	})
	mine := map[[2]string]bool{}
	for i, it := range items {
		round, pos := i/n, i%n
		if round%2 == 1 {
			pos = n - 1 - pos
		}
		if pos == k-1 {
			mine[[2]string{it.pkg, it.typ}] = true
		}
	}
	var out []pkgSubjects
	for _, ps := range sel {
		kept := pkgSubjects{pkg: ps.pkg}
		for _, s := range ps.subjects {
			if mine[[2]string{ps.pkg.PkgPath, s.Plan.Name}] {
				kept.subjects = append(kept.subjects, s)
			}
		}
		out = append(out, kept)
	}
	return out
}
