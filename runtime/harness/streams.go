package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"reflect"
	"strings"
)

// A readCloser is the KReader value for an interface parameter that
// *bytes.Reader does not implement: a *bytes.Reader (Read, ReadAt,
// ReadByte, ReadRune, Seek, WriteTo, ...) with a Close that does nothing.
type readCloser struct{ *bytes.Reader }

// Close does nothing and returns nil.
func (*readCloser) Close() error { return nil }

// A writeCloser is the KWriter value for an interface parameter that
// *bytes.Buffer does not implement: a *bytes.Buffer (Write, WriteString,
// ReadFrom, ...) with Close, Flush and Sync methods that do nothing.
type writeCloser struct{ *bytes.Buffer }

// Close does nothing and returns nil.
func (*writeCloser) Close() error { return nil }

// Flush does nothing and returns nil.
func (*writeCloser) Flush() error { return nil }

// Sync does nothing and returns nil.
func (*writeCloser) Sync() error { return nil }

var (
	stringsReaderType  = reflect.TypeOf((*strings.Reader)(nil))
	bufioReaderType    = reflect.TypeOf((*bufio.Reader)(nil))
	stringsBuilderType = reflect.TypeOf((*strings.Builder)(nil))
	bufioWriterType    = reflect.TypeOf((*bufio.Writer)(nil))
)

// newReader returns a new reader of the bytes of lit for a parameter of
// type t: a *strings.Reader or a *bufio.Reader when t is one, else a
// *bytes.Reader, or a *readCloser when t needs a Close method too.
func newReader(lit string, t reflect.Type) (reflect.Value, error) {
	switch t {
	case stringsReaderType:
		return reflect.ValueOf(strings.NewReader(lit)), nil
	case bufioReaderType:
		return reflect.ValueOf(bufio.NewReader(strings.NewReader(lit))), nil
	}
	if r := reflect.ValueOf(bytes.NewReader([]byte(lit))); r.Type().AssignableTo(t) {
		return r, nil
	}
	if r := reflect.ValueOf(&readCloser{Reader: bytes.NewReader([]byte(lit))}); r.Type().AssignableTo(t) {
		return r, nil
	}
	return reflect.Value{}, fmt.Errorf("reader value for parameter of type %s", t)
}

// newWriter returns a new, empty writer for a parameter of type t: a
// *strings.Builder or a *bufio.Writer (over a buffer) when t is one, else
// a *bytes.Buffer, or a *writeCloser when t needs a Close, Flush or Sync
// method too.
func newWriter(t reflect.Type) (reflect.Value, error) {
	switch t {
	case stringsBuilderType:
		return reflect.ValueOf(&strings.Builder{}), nil
	case bufioWriterType:
		return reflect.ValueOf(bufio.NewWriter(&bytes.Buffer{})), nil
	}
	if w := reflect.ValueOf(&bytes.Buffer{}); w.Type().AssignableTo(t) {
		return w, nil
	}
	if w := reflect.ValueOf(&writeCloser{Buffer: &bytes.Buffer{}}); w.Type().AssignableTo(t) {
		return w, nil
	}
	return reflect.Value{}, fmt.Errorf("writer value for parameter of type %s", t)
}
