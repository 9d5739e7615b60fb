package report

import (
	"cmp"
	"slices"
)

// Merge returns the report of the union of reports (of the shards of one
// run): their types, sorted by package and name.
func Merge(reports ...*Report) *Report {
	out := &Report{Types: []*TypeReport{}}
	var diags [][]*DiagnosticResult
	for _, r := range reports {
		out.Types = append(out.Types, r.Types...)
		diags = append(diags, r.Diagnostics)
		for _, n := range r.Notes {
			if !slices.Contains(out.Notes, n) {
				out.Notes = append(out.Notes, n)
			}
		}
		if out.Isolation == "" {
			out.Isolation = r.Isolation
		} else if r.Isolation != "" && r.Isolation != out.Isolation {
			out.Isolation += "; " + r.Isolation
		}
	}
	slices.SortStableFunc(out.Types, func(a, b *TypeReport) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Type, b.Type))
	})
	out.Diagnostics = mergeDiagnostics(diags...)
	if len(out.Diagnostics) == 0 {
		out.Diagnostics = nil
	}
	out.Reach = ReachOf(out.Types)
	for _, r := range reports {
		for _, f := range r.NotLoaded {
			if !slices.Contains(out.NotLoaded, f) {
				out.NotLoaded = append(out.NotLoaded, f)
			}
		}
	}
	return out
}
