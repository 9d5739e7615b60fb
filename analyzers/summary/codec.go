package summary

import (
	"fmt"
	"go/token"
	"slices"

	"github.com/depcon/depcon/analyzers/internal/codec"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// The fact is encoded by hand (internal/codec) rather than by
// encoding/gob's reflection: go vet decodes the facts of every direct
// import in every package. The functions are written sorted by name, the
// fields of a summary in declaration order, the strings once each.
const factVersion = 3

// GobEncode encodes the fact.
func (f *Fact) GobEncode() ([]byte, error) {
	var e codec.Encoder
	names := make([]string, 0, len(f.Funcs))
	for name := range f.Funcs {
		names = append(names, name)
	}
	slices.Sort(names)
	e.Len(len(names))
	for _, name := range names {
		e.Str(name)
		encodeSummary(&e, f.Funcs[name])
	}
	return e.Bytes(factVersion), nil
}

// GobDecode decodes a fact encoded by GobEncode.
func (f *Fact) GobDecode(data []byte) error {
	var funcs map[string]*Summary
	err := codec.Decode(data, factVersion, func(d *codec.Decoder) {
		n := d.Len()
		funcs = make(map[string]*Summary, n)
		for range n {
			name := d.Str()
			funcs[name] = decodeSummary(d)
		}
	})
	if err != nil {
		return fmt.Errorf("summary: fact: %w", err)
	}
	f.Funcs = funcs
	return nil
}

func encodeSummary(e *codec.Encoder, s *Summary) {
	e.Len(len(s.Accesses))
	for i := range s.Accesses {
		a := &s.Accesses[i]
		e.Str(a.Loc)
		e.Bool(a.Write)
		e.Uint(uint64(a.Flags))
		encodeHeld(e, a.Held)
		e.Int(int64(a.Pos))
		e.Str(a.Where)
		e.Str(a.Via)
	}
	e.Len(len(s.Acquires))
	for i := range s.Acquires {
		a := &s.Acquires[i]
		e.Str(a.Lock)
		e.Str(a.Class)
		e.Uint(uint64(a.Mode))
		encodeHeld(e, a.Held)
		e.Int(int64(a.Pos))
		e.Str(a.Where)
		e.Str(a.Via)
		e.Bool(a.Goroutine)
	}
	encodeHeld(e, s.Exit)
	e.Strs(s.Released)
	e.Bool(s.Truncated)
	e.Bool(s.Foreign)
	e.Len(len(s.FuncCalls))
	for _, c := range s.FuncCalls {
		e.Str(c.Fn)
		e.Bool(c.Goroutine)
	}
}

func decodeSummary(d *codec.Decoder) *Summary {
	s := new(Summary)
	if n := d.Len(); n > 0 {
		s.Accesses = make([]Access, n)
		for i := range s.Accesses {
			a := &s.Accesses[i]
			a.Loc = d.Str()
			a.Write = d.Bool()
			a.Flags = Flags(d.Uint())
			a.Held = decodeHeld(d)
			a.Pos = token.Pos(d.Int())
			a.Where = d.Str()
			a.Via = d.Str()
		}
	}
	if n := d.Len(); n > 0 {
		s.Acquires = make([]Acquire, n)
		for i := range s.Acquires {
			a := &s.Acquires[i]
			a.Lock = d.Str()
			a.Class = d.Str()
			a.Mode = lockstate.Mode(d.Uint())
			a.Held = decodeHeld(d)
			a.Pos = token.Pos(d.Int())
			a.Where = d.Str()
			a.Via = d.Str()
			a.Goroutine = d.Bool()
		}
	}
	s.Exit = decodeHeld(d)
	s.Released = d.Strs()
	s.Truncated = d.Bool()
	s.Foreign = d.Bool()
	if n := d.Len(); n > 0 {
		s.FuncCalls = make([]FuncCall, n)
		for i := range s.FuncCalls {
			s.FuncCalls[i] = FuncCall{Fn: d.Str(), Goroutine: d.Bool()}
		}
	}
	return s
}

func encodeHeld(e *codec.Encoder, hs []Held) {
	e.Len(len(hs))
	for i := range hs {
		h := &hs[i]
		e.Str(h.Lock)
		e.Str(h.Class)
		e.Uint(uint64(h.Mode))
		e.Int(int64(h.Site))
		e.Bool(h.Broken)
		e.Bool(h.Repeat)
		e.Int(int64(h.Pos))
		e.Str(h.Where)
		e.Str(h.Via)
	}
}

func decodeHeld(d *codec.Decoder) []Held {
	n := d.Len()
	if n == 0 {
		return nil
	}
	hs := make([]Held, n)
	for i := range hs {
		h := &hs[i]
		h.Lock = d.Str()
		h.Class = d.Str()
		h.Mode = lockstate.Mode(d.Uint())
		h.Site = int32(d.Int())
		h.Broken = d.Bool()
		h.Repeat = d.Bool()
		h.Pos = token.Pos(d.Int())
		h.Where = d.Str()
		h.Via = d.Str()
	}
	return hs
}
