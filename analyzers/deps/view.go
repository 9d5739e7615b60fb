package deps

import (
	"encoding/binary"
	"errors"
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

// A Plan fact is encoded by hand rather than by encoding/gob's
// reflection: every package that imports another decodes the plan fact in
// that package's facts file (go vet decodes all the facts of the direct
// imports), though no analyzer reads another package's plan, and gob's
// decoding of the nested plans was a sixth of the vet tool's time on
// small packages. The encoding holds the full view only (the exported
// view is derived from it), with each string once in a table (the
// positions repeat their file names): a version byte, the string table,
// then the plan's fields in declaration order as varints (strings by
// index, slices by length, nil when empty, as gob decodes them).
const planVersion = 1

// GobEncode encodes the plan's full view.
func (p *Plan) GobEncode() ([]byte, error) {
	var e planEncoder
	e.index = map[string]uint64{}
	e.str(p.Package)
	e.uint(uint64(len(p.All)))
	for _, t := range p.All {
		e.typePlan(t)
	}
	// The table first: the decoder needs it before the body.
	out := []byte{planVersion}
	out = binary.AppendUvarint(out, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, e.body...), nil
}

// GobDecode decodes a plan encoded by GobEncode and derives its exported
// view.
func (p *Plan) GobDecode(data []byte) (err error) {
	if len(data) == 0 || data[0] != planVersion {
		return errors.New("deps: plan fact of another version")
	}
	d := planDecoder{data: data[1:]}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(planError); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	n := d.len()
	d.table = make([]string, n)
	for i := range d.table {
		l := d.len()
		if l > len(d.data) {
			panic(planError{})
		}
		d.table[i] = string(d.data[:l])
		d.data = d.data[l:]
	}
	p.Package = d.str()
	p.All = nil
	if n := d.len(); n > 0 {
		p.All = make([]*TypePlan, n)
		for i := range p.All {
			p.All[i] = d.typePlan()
		}
	}
	if len(d.data) != 0 {
		return errors.New("deps: trailing bytes in a plan fact")
	}
	p.Types = exportedView(p.All)
	return nil
}

type planEncoder struct {
	body  []byte
	table []string
	index map[string]uint64
}

func (e *planEncoder) uint(n uint64) { e.body = binary.AppendUvarint(e.body, n) }
func (e *planEncoder) int(n int)     { e.body = binary.AppendVarint(e.body, int64(n)) }

func (e *planEncoder) bool(b bool) {
	if b {
		e.uint(1)
	} else {
		e.uint(0)
	}
}

func (e *planEncoder) str(s string) {
	i, ok := e.index[s]
	if !ok {
		i = uint64(len(e.table))
		e.index[s] = i
		e.table = append(e.table, s)
	}
	e.uint(i)
}

func (e *planEncoder) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *planEncoder) typePlan(t *TypePlan) {
	if t == nil {
		e.bool(false)
		return
	}
	e.bool(true)
	e.str(t.Name)
	e.bool(t.Exported)
	e.int(t.Omitted)
	e.bool(t.Concurrent)
	e.str(t.ConcurrentWhy)
	e.uint(uint64(len(t.Methods)))
	for _, m := range t.Methods {
		e.str(m.Name)
		e.bool(m.Exported)
		e.str(m.Pos)
		e.strs(m.Locks)
		e.int(m.Accesses)
		e.int(m.Writes)
	}
	e.int(t.PairsTotal)
	e.int(t.PairsPC)
	e.int(t.PairsD)
	e.uint(uint64(len(t.Pairs)))
	for _, p := range t.Pairs {
		e.str(p.M1)
		e.str(p.M2)
		e.strs(p.Deps)
		e.uint(uint64(len(p.Evidence)))
		for _, v := range p.Evidence {
			e.str(v.Kind)
			e.str(v.Loc1)
			e.str(v.Loc2)
			e.str(v.Pos1)
			e.str(v.Pos2)
			e.str(v.Text)
		}
		e.bool(p.TwoObjects)
	}
}

// planError is a malformed plan encoding.
type planError struct{}

func (planError) Error() string { return "deps: malformed plan fact" }

type planDecoder struct {
	data  []byte
	table []string
}

func (d *planDecoder) uint() uint64 {
	n, k := binary.Uvarint(d.data)
	if k <= 0 {
		panic(planError{})
	}
	d.data = d.data[k:]
	return n
}

func (d *planDecoder) int() int {
	n, k := binary.Varint(d.data)
	if k <= 0 {
		panic(planError{})
	}
	d.data = d.data[k:]
	return int(n)
}

// len reads a length, which cannot exceed the bytes left.
func (d *planDecoder) len() int {
	n := d.uint()
	if n > uint64(len(d.data)) { // every item takes a byte at least
		panic(planError{})
	}
	return int(n)
}

func (d *planDecoder) bool() bool { return d.uint() != 0 }

func (d *planDecoder) str() string {
	i := d.uint()
	if i >= uint64(len(d.table)) {
		panic(planError{})
	}
	return d.table[i]
}

func (d *planDecoder) strs() []string {
	n := d.len()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *planDecoder) typePlan() *TypePlan {
	if !d.bool() {
		return nil
	}
	t := &TypePlan{}
	t.Name = d.str()
	t.Exported = d.bool()
	t.Omitted = d.int()
	t.Concurrent = d.bool()
	t.ConcurrentWhy = d.str()
	if n := d.len(); n > 0 {
		t.Methods = make([]Method, n)
		for i := range t.Methods {
			m := &t.Methods[i]
			m.Name = d.str()
			m.Exported = d.bool()
			m.Pos = d.str()
			m.Locks = d.strs()
			m.Accesses = d.int()
			m.Writes = d.int()
		}
	}
	t.PairsTotal = d.int()
	t.PairsPC = d.int()
	t.PairsD = d.int()
	if n := d.len(); n > 0 {
		t.Pairs = make([]Pair, n)
		for i := range t.Pairs {
			p := &t.Pairs[i]
			p.M1 = d.str()
			p.M2 = d.str()
			p.Deps = d.strs()
			if n := d.len(); n > 0 {
				p.Evidence = make([]Evidence, n)
				for j := range p.Evidence {
					v := &p.Evidence[j]
					v.Kind = d.str()
					v.Loc1 = d.str()
					v.Loc2 = d.str()
					v.Pos1 = d.str()
					v.Pos2 = d.str()
					v.Text = d.str()
				}
			}
			p.TwoObjects = d.bool()
		}
	}
	return t
}
