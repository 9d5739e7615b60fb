package testgen

import (
	"go/types"

	"github.com/depcon/depcon/runtime/harness"
)

// literal returns the construction of an object of the type under test
// when the package gives it no constructor: the composite literal its
// users write, with its exported fields of interface and func types set
// (&AsyncWriter{Writer: w}, &LockedReader{Reader: r}). Left nil, as in
// the zero value, they make every method that calls them panic. Each
// gets a value an argument of its type gets, nil excepted. The call
// has no arguments (the zero value) when the type has no such field.
func (g *Generator) literal() harness.Call {
	fields := g.s.literalFields()
	if len(fields) == 0 {
		return harness.Call{}
	}
	v := g.valuer(nil)
	var elems []harness.Value
	for _, f := range fields {
		val := v.value(f.Type(), 1)
		for try := 0; val.K == harness.KZero && try < 4; try++ {
			val = v.value(f.Type(), 1)
		}
		if val.K == harness.KZero {
			continue
		}
		val.Field = f.Name()
		elems = append(elems, val)
	}
	if len(elems) == 0 {
		return harness.Call{}
	}
	return harness.Call{Args: []harness.Value{{K: harness.KStruct, Elems: elems}}}
}

// literalFields returns the exported fields of the type under test that
// its literal sets (see literal): those of interface and func types.
func (s *Subject) literalFields() []*types.Var {
	st, ok := s.Type.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []*types.Var
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Exported() {
			continue
		}
		switch f.Type().Underlying().(type) {
		case *types.Interface, *types.Signature:
			out = append(out, f)
		}
	}
	return out
}

// LiteralFields names the fields that the objects of a type with no
// constructor have set (see literal); none when they are zero values.
func (s *Subject) LiteralFields() []string {
	var out []string
	for _, f := range s.literalFields() {
		out = append(out, f.Name())
	}
	return out
}
