package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// typeOf returns the type *p points to: typeOf((*io.Reader)(nil)) is
// io.Reader.
func typeOf(p interface{}) reflect.Type { return reflect.TypeOf(p).Elem() }

// TestBuildReader checks KReader values for the parameter types a reader
// fits.
func TestBuildReader(t *testing.T) {
	r := testRegistry()
	for _, tc := range []struct {
		t    reflect.Type
		want reflect.Type // the type of the reader built
	}{
		{typeOf((**bytes.Reader)(nil)), reflect.TypeOf(&bytes.Reader{})},
		{typeOf((*io.Reader)(nil)), reflect.TypeOf(&bytes.Reader{})},
		{typeOf((*io.ReadSeeker)(nil)), reflect.TypeOf(&bytes.Reader{})},
		{typeOf((*io.ReaderAt)(nil)), reflect.TypeOf(&bytes.Reader{})},
		{typeOf((*io.WriterTo)(nil)), reflect.TypeOf(&bytes.Reader{})},
		{typeOf((*interface{})(nil)), reflect.TypeOf(&bytes.Reader{})},
		{typeOf((*io.ReadCloser)(nil)), reflect.TypeOf(&readCloser{})},
		{typeOf((*io.ReadSeekCloser)(nil)), reflect.TypeOf(&readCloser{})},
		{typeOf((**strings.Reader)(nil)), reflect.TypeOf(&strings.Reader{})},
		{typeOf((**bufio.Reader)(nil)), reflect.TypeOf(&bufio.Reader{})},
	} {
		v := Value{K: KReader, Lit: "hello"}
		x, err := r.build(v, tc.t, nil)
		if err != nil {
			t.Errorf("reader as %s: %v", tc.t, err)
			continue
		}
		if x.Type() != tc.want {
			t.Errorf("reader as %s: built a %s, want %s", tc.t, x.Type(), tc.want)
		}
		rd := x.Interface().(io.Reader)
		if b, err := io.ReadAll(rd); err != nil || string(b) != "hello" {
			t.Errorf("reader as %s: read %q, %v, want hello", tc.t, b, err)
		}
		if c, ok := rd.(io.Closer); ok {
			if err := c.Close(); err != nil {
				t.Errorf("reader as %s: Close: %v", tc.t, err)
			}
		}
		// Each value is a new reader.
		y, _ := r.build(v, tc.t, nil)
		if b, _ := io.ReadAll(y.Interface().(io.Reader)); string(b) != "hello" {
			t.Errorf("reader as %s: a second reader read %q, want hello", tc.t, b)
		}
	}
	for _, bad := range []reflect.Type{typeOf((*string)(nil)), typeOf((*io.ReadWriter)(nil)), typeOf((*bytes.Reader)(nil))} {
		if _, err := r.build(Value{K: KReader}, bad, nil); err == nil || !strings.Contains(err.Error(), bad.String()) {
			t.Errorf("reader as %s: error %v, want one naming the type", bad, err)
		}
	}
}

// TestBuildWriter checks KWriter values for the parameter types a writer
// fits.
func TestBuildWriter(t *testing.T) {
	r := testRegistry()
	type flushWriter interface {
		io.Writer
		Flush() error
	}
	for _, tc := range []struct {
		t    reflect.Type
		want reflect.Type
	}{
		{typeOf((**bytes.Buffer)(nil)), reflect.TypeOf(&bytes.Buffer{})},
		{typeOf((*io.Writer)(nil)), reflect.TypeOf(&bytes.Buffer{})},
		{typeOf((*io.ReadWriter)(nil)), reflect.TypeOf(&bytes.Buffer{})},
		{typeOf((*io.StringWriter)(nil)), reflect.TypeOf(&bytes.Buffer{})},
		{typeOf((*io.WriteCloser)(nil)), reflect.TypeOf(&writeCloser{})},
		{typeOf((*flushWriter)(nil)), reflect.TypeOf(&writeCloser{})},
		{typeOf((**strings.Builder)(nil)), reflect.TypeOf(&strings.Builder{})},
		{typeOf((**bufio.Writer)(nil)), reflect.TypeOf(&bufio.Writer{})},
	} {
		x, err := r.build(Value{K: KWriter}, tc.t, nil)
		if err != nil {
			t.Errorf("writer as %s: %v", tc.t, err)
			continue
		}
		if x.Type() != tc.want {
			t.Errorf("writer as %s: built a %s, want %s", tc.t, x.Type(), tc.want)
		}
		w := x.Interface().(io.Writer)
		if n, err := w.Write([]byte("abc")); n != 3 || err != nil {
			t.Errorf("writer as %s: Write: %d, %v", tc.t, n, err)
		}
		if c, ok := w.(io.Closer); ok {
			if err := c.Close(); err != nil {
				t.Errorf("writer as %s: Close: %v", tc.t, err)
			}
		}
		// Each value is a new writer.
		y, _ := r.build(Value{K: KWriter}, tc.t, nil)
		if y.Pointer() == x.Pointer() {
			t.Errorf("writer as %s: the same writer twice", tc.t)
		}
	}
	wc := &writeCloser{Buffer: &bytes.Buffer{}}
	if wc.Close() != nil || wc.Flush() != nil || wc.Sync() != nil {
		t.Error("the no-op Close, Flush or Sync of writeCloser failed")
	}
	for _, bad := range []reflect.Type{typeOf((*int)(nil)), typeOf((*io.WriteSeeker)(nil))} {
		if _, err := r.build(Value{K: KWriter}, bad, nil); err == nil || !strings.Contains(err.Error(), bad.String()) {
			t.Errorf("writer as %s: error %v, want one naming the type", bad, err)
		}
	}
}

// TestBuildContext checks the KCtx variants.
func TestBuildContext(t *testing.T) {
	r := testRegistry()
	ctxType := typeOf((*context.Context)(nil))
	build := func(lit string) context.Context {
		t.Helper()
		x, err := r.build(Value{K: KCtx, Lit: lit}, ctxType, nil)
		if err != nil {
			t.Fatalf("context %q: %v", lit, err)
		}
		return x.Interface().(context.Context)
	}
	if ctx := build(""); ctx != context.Background() {
		t.Errorf("context \"\": got %v, want context.Background()", ctx)
	}
	if ctx := build("cancelled"); !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("context cancelled: Err() = %v, want context.Canceled", ctx.Err())
	}
	ctx := build("timeout")
	if d, ok := ctx.Deadline(); !ok || time.Until(d) > time.Millisecond {
		t.Errorf("context timeout: deadline %v, %v, want one at most 1ms away", d, ok)
	}
	select {
	case <-ctx.Done():
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Errorf("context timeout: Err() = %v, want context.DeadlineExceeded", ctx.Err())
		}
	case <-time.After(5 * time.Second):
		t.Error("context timeout: not done after 5s")
	}
	if x, err := r.build(Value{K: KCtx}, typeOf((*interface{})(nil)), nil); err != nil || x.Interface() != context.Background() {
		t.Errorf("context as interface{}: %v, %v", x, err)
	}
	for _, bad := range []struct {
		lit string
		t   reflect.Type
	}{{"later", ctxType}, {"", typeOf((*int)(nil))}} {
		if _, err := r.build(Value{K: KCtx, Lit: bad.lit}, bad.t, nil); err == nil {
			t.Errorf("context %q as %s: no error", bad.lit, bad.t)
		}
	}
}

type count uint16

// TestBuildFunc checks the KFunc variants.
func TestBuildFunc(t *testing.T) {
	r := testRegistry()
	type results func(string, int) (bool, int, count, float32, complex64, string, error, []int)
	for _, tc := range []struct {
		lit  string
		want []interface{}
	}{
		{"", []interface{}{false, 0, count(0), float32(0), complex64(0), "", error(nil), []int(nil)}},
		{"true", []interface{}{true, 1, count(1), float32(1), complex64(1), "", error(nil), []int(nil)}},
	} {
		x, err := r.build(Value{K: KFunc, Lit: tc.lit}, reflect.TypeOf(results(nil)), nil)
		if err != nil {
			t.Errorf("func %q: %v", tc.lit, err)
			continue
		}
		out := x.Call([]reflect.Value{reflect.ValueOf("k"), reflect.ValueOf(2)})
		for i, o := range out {
			if !reflect.DeepEqual(o.Interface(), tc.want[i]) {
				t.Errorf("func %q: result %d is %#v, want %#v", tc.lit, i, o.Interface(), tc.want[i])
			}
		}
	}
	// A Range-style callback built with "true" goes on iterating.
	x, err := r.build(Value{K: KFunc, Lit: "true"}, reflect.TypeOf(func(k, v interface{}) bool { return false }), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !x.Interface().(func(k, v interface{}) bool)(1, 2) {
		t.Error("a func \"true\" callback returned false")
	}
	for _, bad := range []struct {
		lit string
		t   reflect.Type
	}{{"panic", reflect.TypeOf(func() {})}, {"", typeOf((*int)(nil))}} {
		if _, err := r.build(Value{K: KFunc, Lit: bad.lit}, bad.t, nil); err == nil {
			t.Errorf("func %q as %s: no error", bad.lit, bad.t)
		}
	}
}

type handler interface{ handle(string) bool }

type handlerFunc func(string) bool

func (f handlerFunc) handle(s string) bool { return f(s) }

// TestBuildAdapter checks a KFunc of a registered function type passed
// to an interface parameter it implements, and the error for a type
// that was not registered.
func TestBuildAdapter(t *testing.T) {
	r := testRegistry()
	r.RegisterTypeOf("handlerFunc", (*handlerFunc)(nil))
	ht := reflect.TypeOf((*handler)(nil)).Elem()
	x, err := r.build(Value{K: KFunc, Lit: "true", Type: "handlerFunc"}, ht, nil)
	if err != nil {
		t.Fatal(err)
	}
	h, ok := x.Interface().(handlerFunc)
	if !ok || !h.handle("m") {
		t.Errorf("built %#v, want a handlerFunc returning true", x.Interface())
	}
	if _, err := r.build(Value{K: KFunc, Type: "missing"}, ht, nil); err == nil {
		t.Error("a func of an unregistered type: no error")
	}
}

// TestNewKindsInRequests passes the new kinds of values through a
// request, to methods that use them.
func TestNewKindsInRequests(t *testing.T) {
	r := NewRegistry()
	r.RegisterType("Store", func() interface{} { return &Store{} })
	res, _ := do(t, r, Request{Op: OpSeq, Test: Test{
		Type:    "Store",
		Objects: []Call{{}},
		Prefix: []Call{
			{Fn: "Load", Args: []Value{{K: KReader, Lit: "a b c"}}},
			{Fn: "Dump", Args: []Value{{K: KWriter}}},
		},
		Suffix: []Call{
			{Fn: "Wait", Args: []Value{{K: KCtx, Lit: "cancelled"}}},
			{Fn: "Range", Args: []Value{{K: KFunc, Lit: "true"}}},
		},
	}})
	if res.Status != StatusOK || len(res.Dropped) != 0 {
		t.Fatalf("got %s at %q (%s), dropped %+v, want ok with nothing dropped", res.Status, res.Step, res.Msg, res.Dropped)
	}
}

// Store uses readers, writers, contexts and callbacks.
type Store struct{ words []string }

// Load reads words from rc, which it closes.
func (s *Store) Load(rc io.ReadCloser) error {
	defer rc.Close()
	b, err := io.ReadAll(rc)
	s.words = strings.Fields(string(b))
	if len(s.words) != 3 {
		return errors.New("want 3 words")
	}
	return err
}

// Dump writes the words to w.
func (s *Store) Dump(w io.WriteCloser) error {
	_, err := io.WriteString(w, strings.Join(s.words, " "))
	if err != nil {
		return err
	}
	return w.Close()
}

// Wait waits for ctx to be done.
func (s *Store) Wait(ctx context.Context) { <-ctx.Done() }

// Range calls f on each word while it returns true; it panics unless f
// saw every word.
func (s *Store) Range(f func(i int, w string) bool) {
	n := 0
	for i, w := range s.words {
		if !f(i, w) {
			break
		}
		n++
	}
	if n != len(s.words) {
		panic("stopped early")
	}
}

// dbPath is a named string type for a file name.
type dbPath string

// TestBuildPath checks that each KPath value is its name in a new, empty
// directory of its own, for a string or a named string parameter, and
// that the directories go when the request ends.
func TestBuildPath(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	r := NewRegistry()
	var got []string
	for _, typ := range []reflect.Type{typeOf((*string)(nil)), typeOf((*dbPath)(nil)), typeOf((*string)(nil))} {
		v, err := r.build(Value{K: KPath, Lit: "depcon-file.tmp"}, typ, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v.Type() != typ {
			t.Fatalf("%v built for %v", v.Type(), typ)
		}
		p := v.String()
		if filepath.Base(p) != "depcon-file.tmp" || !strings.HasPrefix(p, os.Getenv("TMPDIR")) {
			t.Errorf("path %q", p)
		}
		if entries, err := os.ReadDir(filepath.Dir(p)); err != nil || len(entries) != 0 {
			t.Errorf("%s: %v, %d entries: want a new, empty directory", filepath.Dir(p), err, len(entries))
		}
		got = append(got, p)
	}
	if got[0] == got[2] {
		t.Errorf("two values share %q", got[0])
	}
	r.removeDirs()
	for _, p := range got {
		if _, err := os.Stat(filepath.Dir(p)); !os.IsNotExist(err) {
			t.Errorf("%s left after the request: %v", filepath.Dir(p), err)
		}
	}
}

// TestBuildConn checks that a KConn value is one end of a connection for
// an io.ReadWriteCloser parameter: without a peer, what it writes is read
// and discarded; with one, the peer's constructor gets the other end and
// answers. closeConns closes both ends.
func TestBuildConn(t *testing.T) {
	r := NewRegistry()
	rwc := typeOf((*io.ReadWriteCloser)(nil))
	v, err := r.build(Value{K: KConn}, rwc, &scope{})
	if err != nil {
		t.Fatal(err)
	}
	conn := v.Interface().(io.ReadWriteCloser)
	if _, err := conn.Write([]byte("hello")); err != nil {
		t.Errorf("write to a connection read and discarded: %v", err)
	}
	// An echoing peer: what the end writes comes back.
	r.RegisterFunc("Echo", func(c io.ReadWriteCloser) io.ReadWriteCloser {
		go func() { _, _ = io.Copy(c, c) }()
		return c
	})
	v, err = r.build(Value{K: KConn, Call: &Call{Fn: "Echo", Args: []Value{{K: KPeer}}}}, rwc, &scope{})
	if err != nil {
		t.Fatal(err)
	}
	conn = v.Interface().(io.ReadWriteCloser)
	go func() { _, _ = conn.Write([]byte("ping")) }()
	b := make([]byte, 4)
	if _, err := io.ReadFull(conn, b); err != nil || string(b) != "ping" {
		t.Errorf("read %q, %v from the peer: want its echo", b, err)
	}
	if _, err := r.build(Value{K: KPeer}, rwc, &scope{}); err == nil {
		t.Error("a KPeer value outside a peer's call was built")
	}
	if _, err := r.build(Value{K: KConn}, typeOf((*string)(nil)), &scope{}); err == nil {
		t.Error("a connection was built for a string")
	}
	r.closeConns()
	if _, err := conn.Read(b); err == nil {
		t.Error("a connection is still open after closeConns")
	}
}

// TestBuildShared checks that a KShared value is built once per scope:
// every use in a set-up gets the same object, a new set-up a new one.
func TestBuildShared(t *testing.T) {
	r := NewRegistry()
	pt := typeOf((**bytes.Buffer)(nil))
	shared := []Value{{K: KNew}}
	sc := &scope{shared: shared}
	x, err := r.build(Value{K: KShared}, pt, sc)
	if err != nil {
		t.Fatal(err)
	}
	y, err := r.build(Value{K: KShared}, pt, sc)
	if err != nil || x.Pointer() != y.Pointer() {
		t.Errorf("second use: %v, %v: want the first use's object", y, err)
	}
	z, err := r.build(Value{K: KShared}, pt, &scope{shared: shared})
	if err != nil || z.Pointer() == x.Pointer() {
		t.Errorf("another set-up: %v, %v: want a new object", z, err)
	}
	if _, err := r.build(Value{K: KShared, Index: 1}, pt, sc); err == nil {
		t.Error("a shared value out of range was built")
	}
}

// TestBuildFuncRef checks that a KFuncRef value is the registered
// function itself, converted to the parameter's function type, and that
// one of another type is refused.
func TestBuildFuncRef(t *testing.T) {
	r := NewRegistry()
	r.RegisterFunc("NewReader", func() (io.Reader, error) { return strings.NewReader("x"), nil })
	type factory func() (io.Reader, error)
	v, err := r.build(Value{K: KFuncRef, Lit: "NewReader"}, typeOf((*factory)(nil)), &scope{})
	if err != nil {
		t.Fatal(err)
	}
	if rd, err := v.Interface().(factory)(); err != nil || rd == nil {
		t.Errorf("the factory returned %v, %v", rd, err)
	}
	if _, err := r.build(Value{K: KFuncRef, Lit: "NewReader"}, typeOf((*func() int)(nil)), &scope{}); err == nil {
		t.Error("a function of another type was built")
	}
}

// stubNamer is a stub, as a registration file declares one.
type stubNamer struct{ _ *stubNamer }

func (*stubNamer) String() string { return "" }

// TestBuildStub checks that a KStub value is a new value of its
// registered stub type at each build, and that an unregistered one fails.
func TestBuildStub(t *testing.T) {
	r := NewRegistry()
	r.RegisterTypeOf("example.com/p.Namer", (*stubNamer)(nil))
	st := typeOf((*fmt.Stringer)(nil))
	a, err := r.build(Value{K: KStub, Type: "example.com/p.Namer"}, st, &scope{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.build(Value{K: KStub, Type: "example.com/p.Namer"}, st, &scope{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Interface().(*stubNamer); !ok || a.Interface() == b.Interface() {
		t.Errorf("built %#v and %#v: want two new *stubNamer", a.Interface(), b.Interface())
	}
	if _, err := r.build(Value{K: KStub, Type: "example.com/p.Other"}, st, &scope{}); err == nil {
		t.Error("a stub of an unregistered type was built")
	}
}

// TestBuildListener checks that a KListener value is a listener on the
// loopback interface that accepts connections, and that it is closed
// once the scope's requests end (the other call has returned), so that
// an Accept loop returns.
func TestBuildListener(t *testing.T) {
	r := NewRegistry()
	sc := &scope{}
	v, err := r.build(Value{K: KListener}, listenerType, sc)
	if err != nil {
		t.Fatal(err)
	}
	ln := v.Interface().(net.Listener)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("dialing the listener: %v", err)
	}
	c.Close()
	if _, err := ln.Accept(); err != nil {
		t.Fatalf("accepting: %v", err)
	}
	sc.endRequests()
	if _, err := ln.Accept(); err == nil {
		t.Error("the listener accepts after the requests ended")
	}
	if _, err := r.build(Value{K: KListener}, typeOf((*string)(nil)), sc); err == nil {
		t.Error("a listener was built for a string")
	}
	r.closeConns()
}

// TestBuildLeaveContext checks that a CtxLeave context lasts until the
// scope's requests end (one of the two concurrent calls has returned).
func TestBuildLeaveContext(t *testing.T) {
	r := NewRegistry()
	sc := &scope{}
	v, err := r.build(Value{K: KCtx, Lit: CtxLeave}, typeOf((*context.Context)(nil)), sc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := v.Interface().(context.Context)
	if ctx.Err() != nil {
		t.Fatalf("a new leave context has ended: %v", ctx.Err())
	}
	sc.endRequests()
	if ctx.Err() == nil {
		t.Error("the leave context lasts after the requests ended")
	}
}

// TestFuncReturnsKey checks that a generated function returns its first
// argument for an empty-interface result (a loader returns its key, as
// nil is often refused), and zero values for the other results.
func TestFuncReturnsKey(t *testing.T) {
	type loader func(key interface{}) (interface{}, error)
	v, err := newFunc("", reflect.TypeOf(loader(nil)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.Interface().(loader)("k")
	if got != "k" || err != nil {
		t.Errorf("loader(%q) = %v, %v; want the key and no error", "k", got, err)
	}
	f, err := newFunc("", reflect.TypeOf(func() interface{} { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Interface().(func() interface{})(); got != nil {
		t.Errorf("a function without arguments returned %v, want nil", got)
	}
}
