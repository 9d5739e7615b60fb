package deps

// ExportedOnly returns the exported view of t: its exported methods and
// the dependent pairs among them, with the counts recomputed. Locks,
// Accesses and Writes of a method are those of the full view (a read of
// a location that only an unexported method writes counts in them).
func (t *TypePlan) ExportedOnly() *TypePlan {
	e := *t
	e.Omitted = 0
	e.Methods, e.Pairs = nil, nil
	exported := map[string]bool{}
	for _, m := range t.Methods {
		if m.Exported {
			e.Methods = append(e.Methods, m)
			exported[m.Name] = true
		}
	}
	n := len(e.Methods)
	e.PairsTotal, e.PairsPC, e.PairsD = n*(n+1)/2, 0, 0
	for _, p := range t.Pairs {
		if !exported[p.M1] || !exported[p.M2] {
			continue
		}
		e.Pairs = append(e.Pairs, p)
		if p.Has(DepPC) {
			e.PairsPC++
		}
		if p.Has(DepD) || p.Has(DepRWR) || p.Has(DepSelf) {
			e.PairsD++
		}
	}
	return &e
}

// exportedView returns the exported view of the full plans all: the
// exported types with exported methods, restricted to them.
func exportedView(all []*TypePlan) []*TypePlan {
	var out []*TypePlan
	for _, t := range all {
		if !t.Exported {
			continue
		}
		if e := t.ExportedOnly(); len(e.Methods) > 0 {
			out = append(out, e)
		}
	}
	return out
}
