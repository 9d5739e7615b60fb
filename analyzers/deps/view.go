package deps

import (
	"fmt"

	"github.com/depcon/depcon/analyzers/internal/codec"
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

// A Plan fact is encoded by hand (internal/codec) rather than by
// encoding/gob's reflection: every package that imports another decodes
// the plan fact in that package's facts file (go vet decodes all the
// facts of the direct imports), though no analyzer reads another
// package's plan, and gob's decoding of the nested plans was a sixth of
// the vet tool's time on small packages. The encoding holds the full view
// only (the exported view is derived from it), its fields in declaration
// order; the strings (the positions repeat their file names) are stored
// once.
const planVersion = 3

// GobEncode encodes the plan's full view.
func (p *Plan) GobEncode() ([]byte, error) {
	var e codec.Encoder
	e.Str(p.Package)
	e.Len(len(p.All))
	for _, t := range p.All {
		encodeType(&e, t)
	}
	return e.Bytes(planVersion), nil
}

// GobDecode decodes a plan encoded by GobEncode and derives its exported
// view.
func (p *Plan) GobDecode(data []byte) error {
	var q Plan
	err := codec.Decode(data, planVersion, func(d *codec.Decoder) {
		q.Package = d.Str()
		if n := d.Len(); n > 0 {
			q.All = make([]*TypePlan, n)
			for i := range q.All {
				q.All[i] = decodeType(d)
			}
		}
	})
	if err != nil {
		return fmt.Errorf("deps: plan fact: %w", err)
	}
	q.Types = exportedView(q.All)
	*p = q
	return nil
}

func encodeType(e *codec.Encoder, t *TypePlan) {
	if t == nil {
		e.Bool(false)
		return
	}
	e.Bool(true)
	e.Str(t.Name)
	e.Bool(t.Exported)
	e.Int(int64(t.Omitted))
	e.Bool(t.Concurrent)
	e.Str(t.ConcurrentWhy)
	e.Str(t.NotShared)
	e.Len(len(t.Methods))
	for _, m := range t.Methods {
		e.Str(m.Name)
		e.Bool(m.Exported)
		e.Str(m.Pos)
		e.Strs(m.Locks)
		e.Int(int64(m.Accesses))
		e.Int(int64(m.Writes))
		e.Str(m.SetUp)
		e.Bool(m.Truncated)
		e.Bool(m.Unsynchronised)
		e.Str(m.Sequential)
		e.Bool(m.CallsOut)
	}
	e.Int(int64(t.PairsTotal))
	e.Int(int64(t.PairsPC))
	e.Int(int64(t.PairsD))
	e.Len(len(t.Pairs))
	for _, p := range t.Pairs {
		e.Str(p.M1)
		e.Str(p.M2)
		e.Strs(p.Deps)
		e.Len(len(p.Evidence))
		for _, v := range p.Evidence {
			e.Str(v.Kind)
			e.Str(v.Loc1)
			e.Str(v.Loc2)
			e.Str(v.Pos1)
			e.Str(v.Pos2)
			e.Str(v.Text)
		}
		e.Bool(p.TwoObjects)
		e.Str(p.Question)
	}
	e.Strs(t.Ignored)
}

func decodeType(d *codec.Decoder) *TypePlan {
	if !d.Bool() {
		return nil
	}
	t := &TypePlan{}
	t.Name = d.Str()
	t.Exported = d.Bool()
	t.Omitted = int(d.Int())
	t.Concurrent = d.Bool()
	t.ConcurrentWhy = d.Str()
	t.NotShared = d.Str()
	if n := d.Len(); n > 0 {
		t.Methods = make([]Method, n)
		for i := range t.Methods {
			m := &t.Methods[i]
			m.Name = d.Str()
			m.Exported = d.Bool()
			m.Pos = d.Str()
			m.Locks = d.Strs()
			m.Accesses = int(d.Int())
			m.Writes = int(d.Int())
			m.SetUp = d.Str()
			m.Truncated = d.Bool()
			m.Unsynchronised = d.Bool()
			m.Sequential = d.Str()
			m.CallsOut = d.Bool()
		}
	}
	t.PairsTotal = int(d.Int())
	t.PairsPC = int(d.Int())
	t.PairsD = int(d.Int())
	if n := d.Len(); n > 0 {
		t.Pairs = make([]Pair, n)
		for i := range t.Pairs {
			p := &t.Pairs[i]
			p.M1 = d.Str()
			p.M2 = d.Str()
			p.Deps = d.Strs()
			if n := d.Len(); n > 0 {
				p.Evidence = make([]Evidence, n)
				for j := range p.Evidence {
					v := &p.Evidence[j]
					v.Kind = d.Str()
					v.Loc1 = d.Str()
					v.Loc2 = d.Str()
					v.Pos1 = d.Str()
					v.Pos2 = d.Str()
					v.Text = d.Str()
				}
			}
			p.TwoObjects = d.Bool()
			p.Question = d.Str()
		}
	}
	t.Ignored = d.Strs()
	return t
}
