package repro

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/testgen"
)

// adapt adapts e, the result of function f, to type want: it checks the
// error or bool second result (as depcon did: it was nil, or true, when
// the test ran), asserts the dynamic type of an interface, and takes the
// address of, or dereferences, the value.
func (w *writer) adapt(e string, f *testgen.Func, want types.Type) string {
	switch f.Check() {
	case "error":
		x, err := w.temp("v"), w.temp("err")
		w.pre = append(w.pre, fmt.Sprintf("%s, %s := %s\nif %s != nil {\nt.Fatal(%s)\n}", x, err, e, err, err))
		e = x
	case "bool":
		x, ok := w.temp("v"), w.temp("ok")
		w.pre = append(w.pre, fmt.Sprintf("%s, %s := %s\nif !%s {\nt.Fatal(%q)\n}", x, ok, e, ok, f.Name+" failed"))
		e = x
	case "extra":
		x := w.temp("v")
		w.pre = append(w.pre, fmt.Sprintf("%s, _ := %s", x, e))
		e = x
	}
	res := f.Sig.Results().At(0).Type()
	wantPtr, _ := want.Underlying().(*types.Pointer)
	if types.IsInterface(want) {
		return e
	}
	if f.Iface() {
		// The dynamic value is the type under test or a pointer to it.
		elem := want
		if wantPtr != nil {
			elem = wantPtr.Elem()
		}
		x, p := w.temp("v"), w.temp("p")
		value := "" // a case for a value of the type, when it can be one
		if iface, ok := f.Res.Underlying().(*types.Interface); ok && types.Implements(elem, iface) {
			value = fmt.Sprintf("case %s:\n%s = &%s\n", w.typ(elem), p, x)
		}
		w.pre = append(w.pre, fmt.Sprintf("var %s *%s\nswitch %s := %s.(type) {\ncase *%s:\n%s = %s\n%s"+
			"default:\nt.Fatalf(\"%s returned %%T\", %s)\n}", p, w.typ(elem), x, e, w.typ(elem), p, x, value,
			f.Name, x))
		if wantPtr == nil {
			return "*" + p
		}
		return p
	}
	_, resPtr := res.(*types.Pointer)
	switch {
	case resPtr && wantPtr == nil:
		return "*" + e
	case !resPtr && wantPtr != nil:
		x := w.temp("v")
		w.pre = append(w.pre, fmt.Sprintf("%s := %s", x, e))
		return "&" + x
	}
	return e
}

// param returns the type of parameter i of sig.
func param(sig *types.Signature, i int) types.Type { return sig.Params().At(i).Type() }

// expr returns the Go expression of v for a parameter of type t.
func (w *writer) expr(v harness.Value, t types.Type) string {
	switch v.K {
	case harness.KLit:
		return w.literal(v, t)
	case harness.KObj:
		if _, ok := t.Underlying().(*types.Pointer); !ok && !types.IsInterface(t) {
			return "*" + obj(v.Obj)
		}
		return obj(v.Obj)
	case harness.KResult:
		return resultVar(v.Prefix, v.Result)
	case harness.KStruct:
		st := t
		ptr := false
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			st, ptr = p.Elem(), true
		}
		var fields []string
		if s, ok := st.Underlying().(*types.Struct); ok {
			for _, e := range v.Elems {
				for i := range s.NumFields() {
					if f := s.Field(i); f.Name() == e.Field {
						fields = append(fields, e.Field+": "+w.expr(e, f.Type()))
					}
				}
			}
		}
		lit := w.typ(st) + "{" + strings.Join(fields, ", ") + "}"
		if ptr {
			return "&" + lit
		}
		return lit
	case harness.KCall:
		return w.adapt(w.funcCall(*v.Call), w.s.Funcs[v.Call.Fn], t)
	case harness.KCtx:
		return w.context(v.Lit)
	case harness.KFunc:
		if v.Type != "" {
			if tn, ok := w.s.Pkg.Scope().Lookup(v.Type).(*types.TypeName); ok {
				return w.typ(tn.Type()) + "(" + w.funcLit(tn.Type(), v.Lit == funcTrue) + ")"
			}
		}
		return w.funcLit(t, v.Lit == funcTrue)
	case harness.KStub:
		if n := w.s.Stub(v.Type); n != nil {
			return "&" + w.stubName(n) + "{}"
		}
		return "nil"
	case harness.KConn:
		return w.conn(v)
	case harness.KResponse:
		w.imports["net/http/httptest"] = "httptest"
		return "httptest.NewRecorder()"
	case harness.KRequest:
		return w.request()
	case harness.KListener:
		return w.listener()
	case harness.KPeer:
		return w.peer
	case harness.KFuncRef:
		if f := w.s.Funcs[v.Lit]; f != nil {
			return w.funcExpr(f)
		}
		return "nil"
	case harness.KShared:
		// Built at its first use, in a variable the other uses name.
		if name, ok := w.shared[v.Index]; ok {
			return name
		}
		if v.Index < 0 || v.Index >= len(w.test.Shared) {
			return "nil"
		}
		e := w.expr(w.test.Shared[v.Index], t)
		name := w.temp("shared")
		w.pre = append(w.pre, fmt.Sprintf("%s := %s", name, e))
		if w.shared == nil {
			w.shared = map[int]string{}
		}
		w.shared[v.Index] = name
		return name
	case harness.KReader:
		return w.reader(v.Lit, t)
	case harness.KFresh:
		// A name of its own in every iteration, as depcon gave it.
		w.imports["path/filepath"] = "filepath"
		e := strconv.Quote(v.Lit) + " + filepath.Base(t.TempDir())"
		if _, named := types.Unalias(t).(*types.Named); named {
			e = w.typ(t) + "(" + e + ")"
		}
		return e
	case harness.KPath:
		// A file of its own in every iteration, as depcon gave it.
		e := "t.TempDir()"
		if v.Lit != "." {
			w.imports["path/filepath"] = "filepath"
			e = "filepath.Join(t.TempDir(), " + strconv.Quote(v.Lit) + ")"
		}
		if _, named := types.Unalias(t).(*types.Named); named {
			e = w.typ(t) + "(" + e + ")"
		}
		return e
	case harness.KWriter:
		return w.writerValue(t)
	case harness.KZero:
		switch t.Underlying().(type) {
		case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
			return "nil"
		case *types.Struct, *types.Array:
			return w.typ(t) + "{}"
		}
		return w.typ(t) + "(" + zeroBasic(t) + ")"
	case harness.KNew:
		return "&" + w.typ(t.Underlying().(*types.Pointer).Elem()) + "{}"
	case harness.KSlice:
		elem := t.Underlying().(*types.Slice).Elem()
		var es []string
		for _, e := range v.Elems {
			es = append(es, w.expr(e, elem))
		}
		return w.typ(t) + "{" + strings.Join(es, ", ") + "}"
	case harness.KMap, harness.KChan:
		if v.K == harness.KChan && v.Lit == harness.ChanLeave {
			return w.leavingChan(t)
		}
		if v.K == harness.KChan {
			if ch, ok := t.Underlying().(*types.Chan); ok && ch.Dir() != types.SendRecv {
				// make cannot build a directional channel: convert a
				// bidirectional one.
				return "(" + w.typ(t) + ")(make(chan " + w.typ(ch.Elem()) + ", 1))"
			}
			return "make(" + w.typ(t) + ", 1)"
		}
		return "make(" + w.typ(t) + ")"
	}
	return "nil"
}

// literal returns a basic literal for a parameter of type t.
func (w *writer) literal(v harness.Value, t types.Type) string {
	if types.IsInterface(t) {
		if v.Basic == "string" {
			return strconv.Quote(v.Lit)
		}
		return v.Lit
	}
	b, _ := t.Underlying().(*types.Basic)
	switch {
	case b == nil:
		return v.Lit
	case b.Info()&types.IsString != 0:
		return strconv.Quote(v.Lit)
	case v.Lit == "max" || v.Lit == "min":
		return w.bound(b, v.Lit)
	}
	return v.Lit
}

// bound returns the expression of the maximum or minimum of a basic type.
func (w *writer) bound(b *types.Basic, which string) string {
	w.imports["math"] = "math"
	name := map[types.BasicKind]string{
		types.Int: "Int", types.Int8: "Int8", types.Int16: "Int16", types.Int32: "Int32", types.Int64: "Int64",
		types.Uint: "Uint", types.Uint8: "Uint8", types.Uint16: "Uint16", types.Uint32: "Uint32",
		types.Uint64: "Uint64", types.Float32: "Float32", types.Float64: "Float64",
	}[b.Kind()]
	switch {
	case b.Kind() == types.Uintptr && which == "max":
		return "^uintptr(0)"
	case name == "" || b.Info()&types.IsUnsigned != 0 && which == "min":
		return "0"
	case b.Info()&types.IsFloat != 0 && which == "min":
		return "-math.Max" + name
	}
	return "math." + title(which) + name
}

// funcLit returns a function literal of type t that returns zero
// values or, when truthy, true and 1 for its boolean and numeric results.
func (w *writer) funcLit(t types.Type, truthy bool) string {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok {
		// An interface{} parameter, as the harness fills it.
		return "func(...interface{}) {}"
	}
	var ps, rs, vals []string
	for i := range sig.Params().Len() {
		p := w.typ(sig.Params().At(i).Type())
		if sig.Variadic() && i == sig.Params().Len()-1 {
			p = "..." + strings.TrimPrefix(p, "[]")
		}
		ps = append(ps, fmt.Sprintf("p%d %s", i, p))
	}
	for i := range sig.Results().Len() {
		rt := sig.Results().At(i).Type()
		rs = append(rs, fmt.Sprintf("r%d %s", i, w.typ(rt)))
		if u, ok := rt.Underlying().(*types.Interface); ok && u.Empty() && sig.Params().Len() > 0 &&
			types.AssignableTo(sig.Params().At(0).Type(), rt) {
			// As the harness does: a loader returns its key.
			vals = append(vals, fmt.Sprintf("r%d = p0", i))
			continue
		}
		if b, ok := rt.Underlying().(*types.Basic); ok && truthy {
			switch {
			case b.Info()&types.IsBoolean != 0:
				vals = append(vals, fmt.Sprintf("r%d = true", i))
			case b.Info()&types.IsNumeric != 0:
				vals = append(vals, fmt.Sprintf("r%d = 1", i))
			}
		}
	}
	lit := "func(" + strings.Join(ps, ", ") + ")"
	if len(rs) > 0 {
		lit += " (" + strings.Join(rs, ", ") + ")"
	}
	switch {
	case len(rs) == 0:
		return lit + " {}"
	case len(vals) == 0:
		return lit + " { return }"
	}
	return lit + " {\n" + strings.Join(vals, "\n") + "\nreturn\n}"
}

// context returns a context as the harness builds it for lit: a
// background one, one already cancelled, or one that times out after a
// millisecond.
// request returns a new GET request of "/" whose context ends after
// harness.RequestTimeout (harness.KRequest).
func (w *writer) request() string {
	w.imports["context"] = "context"
	w.imports["net/http/httptest"] = "httptest"
	ctx, cancel := w.temp("ctx"), w.temp("cancel")
	w.pre = append(w.pre, fmt.Sprintf("%s, %s := context.WithTimeout(context.Background(), %d*time.Millisecond)\ndefer %s()",
		ctx, cancel, harness.RequestTimeout/time.Millisecond, cancel))
	return fmt.Sprintf("httptest.NewRequest(\"GET\", \"/\", nil).WithContext(%s)", ctx)
}

// listener returns a new TCP listener on the loopback interface
// (harness.KListener), closed after harness.RequestTimeout, as depcon
// test closed it, or when the test ends.
func (w *writer) listener() string {
	w.imports["net"] = "net"
	ln, err := w.temp("ln"), w.temp("err")
	w.pre = append(w.pre, fmt.Sprintf("%s, %s := net.Listen(\"tcp\", \"127.0.0.1:0\")\nif %s != nil {\nt.Fatal(%s)\n}\n"+
		"defer %s.Close()\ntime.AfterFunc(%d*time.Millisecond, func() { %s.Close() })",
		ln, err, err, err, ln, harness.RequestTimeout/time.Millisecond, ln))
	return ln
}

func (w *writer) context(lit string) string {
	w.imports["context"] = "context"
	switch lit {
	case ctxCancelled:
		ctx, cancel := w.temp("ctx"), w.temp("cancel")
		w.pre = append(w.pre, fmt.Sprintf("%s, %s := context.WithCancel(context.Background())\n%s()", ctx, cancel, cancel))
		return ctx
	case ctxTimeout:
		ctx, cancel := w.temp("ctx"), w.temp("cancel")
		w.pre = append(w.pre, fmt.Sprintf("%s, %s := context.WithTimeout(context.Background(), time.Millisecond)\ndefer %s()",
			ctx, cancel, cancel))
		return ctx
	case harness.CtxLeave:
		// Cancelled by each concurrent call when it returns (see body),
		// or after harness.RequestTimeout, as depcon test cancels it.
		ctx, cancel := w.temp("ctx"), w.temp("cancel")
		w.pre = append(w.pre, fmt.Sprintf("%s, %s := context.WithTimeout(context.Background(), %d*time.Millisecond)",
			ctx, cancel, harness.RequestTimeout/time.Millisecond))
		w.leavers = append(w.leavers, cancel)
		return ctx
	}
	return "context.Background()"
}

// leavingChan returns a signal channel of type t that each concurrent
// call closes when it returns (see body), or that closes after
// harness.RequestTimeout, as depcon test closes it (harness.ChanLeave).
func (w *writer) leavingChan(t types.Type) string {
	w.imports["sync"] = "sync"
	c := t.Underlying().(*types.Chan)
	ch, once, leave := w.temp("quit"), w.temp("once"), w.temp("leave")
	w.pre = append(w.pre, fmt.Sprintf("%s := make(chan %s)\nvar %s sync.Once\n"+
		"%s := func() { %s.Do(func() { close(%s) }) }\ntime.AfterFunc(%d*time.Millisecond, %s)",
		ch, w.typ(c.Elem()), once, leave, once, ch, harness.RequestTimeout/time.Millisecond, leave))
	w.leavers = append(w.leavers, leave)
	if _, named := types.Unalias(t).(*types.Named); !named && c.Dir() == types.SendRecv {
		return ch
	}
	return "(" + w.typ(t) + ")(" + ch + ")"
}

// The literals of KCtx and KFunc values the harness gives a meaning.
const (
	ctxCancelled = "cancelled"
	ctxTimeout   = "timeout"
	funcTrue     = "true"
)

// reader returns a reader over data for a parameter of type t.
func (w *writer) reader(data string, t types.Type) string {
	switch {
	case isNamedPtr(t, "strings", "Reader"):
		w.imports["strings"] = "strings"
		return "strings.NewReader(" + strconv.Quote(data) + ")"
	case isNamedPtr(t, "bufio", "Reader"):
		w.imports["bufio"] = "bufio"
		w.imports["strings"] = "strings"
		return "bufio.NewReader(strings.NewReader(" + strconv.Quote(data) + "))"
	}
	// As the harness does (harness.newReader): a *bytes.Reader, with a
	// Close when the parameter needs one.
	w.imports["bytes"] = "bytes"
	r := "bytes.NewReader([]byte(" + strconv.Quote(data) + "))"
	if needs(t, "Close") && !isNamedPtr(t, "bytes", "Reader") {
		w.readCloser = true
		return w.prefix + "ReadCloser{" + r + "}"
	}
	return r
}

// writerValue returns a fresh writer for a parameter of type t.
func (w *writer) writerValue(t types.Type) string {
	w.imports["bytes"] = "bytes"
	switch {
	case isNamedPtr(t, "strings", "Builder"):
		w.imports["strings"] = "strings"
		return "new(strings.Builder)"
	case isNamedPtr(t, "bufio", "Writer"):
		w.imports["bufio"] = "bufio"
		return "bufio.NewWriter(new(bytes.Buffer))"
	case needs(t, "Close") || needs(t, "Flush") || needs(t, "Sync"):
		w.writeCloser = true
		return "&" + w.prefix + "WriteCloser{}"
	}
	return "new(bytes.Buffer)"
}

// isNamedPtr reports whether t is *path.name.
func isNamedPtr(t types.Type, path, name string) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// needs reports whether interface t has method name.
func needs(t types.Type, name string) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := range iface.NumMethods() {
		if iface.Method(i).Name() == name {
			return true
		}
	}
	return false
}

// zeroBasic returns the zero literal of a basic type.
func zeroBasic(t types.Type) string {
	b, ok := t.Underlying().(*types.Basic)
	switch {
	case !ok:
		return "0"
	case b.Info()&types.IsString != 0:
		return `""`
	case b.Info()&types.IsBoolean != 0:
		return "false"
	}
	return "0"
}

// typ returns the Go expression of type t in the package under test,
// recording the imports it needs.
func (w *writer) typ(t types.Type) string { return types.TypeString(t, w.qualifier) }

// qualifier names the package p in the test, which imports it.
func (w *writer) qualifier(p *types.Package) string {
	if p == w.s.Pkg {
		return ""
	}
	w.imports[p.Path()] = p.Name()
	return p.Name()
}

// conn returns the end of a new in-memory connection (harness.KConn),
// the statements that make it pending: net.Pipe, then a goroutine that
// builds the peer v.Call names on the other end (its handshake needs
// the object's, built next), or one that reads and discards what the
// other end receives. Both ends are closed when the iteration is over.
func (w *writer) conn(v harness.Value) string {
	w.imports["net"] = "net"
	end, other := w.temp("conn"), w.temp("peer")
	w.pre = append(w.pre, fmt.Sprintf("%s, %s := net.Pipe()", end, other))
	w.closers = append(w.closers, end, other)
	if v.Call == nil {
		w.imports["io"] = "io"
		w.imports["io/ioutil"] = "ioutil"
		w.pre = append(w.pre, fmt.Sprintf("go io.Copy(ioutil.Discard, %s)", other))
		return end
	}
	outer := w.peer
	w.peer = other
	call := w.funcCall(*v.Call)
	w.peer = outer
	w.pre = append(w.pre, "go "+call)
	return end
}
