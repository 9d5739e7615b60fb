// Package codec is a small binary encoding for analysis facts.
//
// Every importing package decodes them (go vet decodes all the facts of a
// package's direct imports, and re-exports the facts about methods of all
// its dependencies), so the encoding is varints, and strings once each in
// a table, which is much faster to decode than encoding/gob's reflection
// over nested structs.
//
// An encoding is a version byte, the string table (its length, then each
// string's length and bytes), then the body the caller wrote. Slices are
// written as their length; a decoder returns nil for an empty one, as gob
// does.
package codec

import (
	"encoding/binary"
	"errors"
)

// An Encoder writes a body and collects its strings.
type Encoder struct {
	body  []byte
	table []string
	index map[string]uint64
}

func (e *Encoder) Uint(n uint64) { e.body = binary.AppendUvarint(e.body, n) }
func (e *Encoder) Int(n int64)   { e.body = binary.AppendVarint(e.body, n) }

func (e *Encoder) Bool(b bool) {
	if b {
		e.Uint(1)
	} else {
		e.Uint(0)
	}
}

// Len writes the length of a slice.
func (e *Encoder) Len(n int) { e.Uint(uint64(n)) }

func (e *Encoder) Str(s string) {
	i, ok := e.index[s]
	if !ok {
		if e.index == nil {
			e.index = map[string]uint64{}
		}
		i = uint64(len(e.table))
		e.index[s] = i
		e.table = append(e.table, s)
	}
	e.Uint(i)
}

func (e *Encoder) Strs(ss []string) {
	e.Len(len(ss))
	for _, s := range ss {
		e.Str(s)
	}
}

// Bytes returns the encoding, with version as its first byte.
func (e *Encoder) Bytes(version byte) []byte {
	n := 1 + binary.MaxVarintLen64 + len(e.body)
	for _, s := range e.table {
		n += len(s) + 2
	}
	out := make([]byte, 0, n)
	out = append(out, version)
	out = binary.AppendUvarint(out, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, e.body...)
}

// Malformed is the error of a decoding that does not parse.
type Malformed struct{}

func (Malformed) Error() string { return "malformed encoding" }

// A Decoder reads an encoding. Its methods panic with Malformed on
// malformed data; Decode recovers it.
type Decoder struct {
	data  []byte
	table []string
}

// Decode reads the string table of data, which must have version as its
// first byte, and calls body to read the rest, which it must consume.
func Decode(data []byte, version byte, body func(*Decoder)) (err error) {
	if len(data) == 0 || data[0] != version {
		return errors.New("encoding of another version")
	}
	d := &Decoder{data: data[1:]}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(Malformed); !ok {
				panic(r)
			}
			err = Malformed{}
		}
	}()
	d.table = make([]string, d.Len())
	for i := range d.table {
		l := d.Len()
		d.table[i] = string(d.data[:l])
		d.data = d.data[l:]
	}
	body(d)
	if len(d.data) != 0 {
		return Malformed{}
	}
	return nil
}

func (d *Decoder) Uint() uint64 {
	n, k := binary.Uvarint(d.data)
	if k <= 0 {
		panic(Malformed{})
	}
	d.data = d.data[k:]
	return n
}

func (d *Decoder) Int() int64 {
	n, k := binary.Varint(d.data)
	if k <= 0 {
		panic(Malformed{})
	}
	d.data = d.data[k:]
	return n
}

func (d *Decoder) Bool() bool { return d.Uint() != 0 }

// Len reads a length, which cannot exceed the bytes left (every item of
// a slice takes a byte at least).
func (d *Decoder) Len() int {
	n := d.Uint()
	if n > uint64(len(d.data)) {
		panic(Malformed{})
	}
	return int(n)
}

func (d *Decoder) Str() string {
	i := d.Uint()
	if i >= uint64(len(d.table)) {
		panic(Malformed{})
	}
	return d.table[i]
}

func (d *Decoder) Strs() []string {
	n := d.Len()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.Str()
	}
	return out
}
