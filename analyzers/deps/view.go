package deps

import (
	"bytes"
	"encoding/gob"
)

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

// planWire is what a Plan fact encodes: the full view only.
type planWire struct {
	Package string
	All     []*TypePlan
}

// GobEncode encodes the plan's full view (the exported view is derived
// from it), so that a fact does not hold each exported pair twice.
func (p *Plan) GobEncode() ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(planWire{Package: p.Package, All: p.All})
	return buf.Bytes(), err
}

// GobDecode decodes a plan encoded by GobEncode and derives its exported
// view.
func (p *Plan) GobDecode(data []byte) error {
	var w planWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return err
	}
	p.Package, p.All, p.Types = w.Package, w.All, exportedView(w.All)
	return nil
}
