package harness

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// basicTypes are the types of KLit values passed to interface parameters.
var basicTypes = map[string]reflect.Type{
	"bool":    reflect.TypeOf(false),
	"int":     reflect.TypeOf(0),
	"int64":   reflect.TypeOf(int64(0)),
	"uint":    reflect.TypeOf(uint(0)),
	"float64": reflect.TypeOf(float64(0)),
	"string":  reflect.TypeOf(""),
}

// newDir makes a new, empty directory for a KPath value, removed when
// the request ends.
func (r *Registry) newDir() (string, error) {
	dir, err := os.MkdirTemp("", "depcon-path-")
	if err != nil {
		return "", fmt.Errorf("a directory for a file name: %w", err)
	}
	r.dirsMu.Lock()
	r.dirs = append(r.dirs, dir)
	r.dirsMu.Unlock()
	return dir, nil
}

// removeDirs removes the directories made for the request's KPath values
// (files the objects still hold open go when they are closed).
func (r *Registry) removeDirs() {
	r.dirsMu.Lock()
	dirs := r.dirs
	r.dirs = nil
	r.dirsMu.Unlock()
	for _, d := range dirs {
		os.RemoveAll(d)
	}
}

// A scope is what the arguments of a call may refer to: the shared
// objects (pointers to the type under test) and the results of the
// prefix calls made so far, by index (nil for those not made).
type scope struct {
	objs    []reflect.Value
	results [][]reflect.Value
	// peer is, while the peer of a KConn value is built, the other end
	// of its connection (KPeer).
	peer reflect.Value
	// shared are the test's shared values (Test.Shared), and built
	// those built so far in this set-up, by index.
	shared []Value
	built  map[int]reflect.Value
	// leave ends the requests built in this scope (KRequest): their
	// clients leave; closes its listeners (KListener) and cancels its
	// CtxLeave contexts.
	leave []context.CancelFunc
}

// leavingChan returns a channel of type t that is closed once one of the
// concurrent calls of scope sc has returned, or after RequestTimeout
// (ChanLeave).
func leavingChan(t reflect.Type, sc *scope) reflect.Value {
	ch := reflect.MakeChan(reflect.ChanOf(reflect.BothDir, t.Elem()), 0)
	var once sync.Once
	leave := func() {
		once.Do(func() {
			defer func() { _ = recover() }() // the code under test closed it
			ch.Close()
		})
	}
	timer := time.AfterFunc(RequestTimeout, leave)
	sc.leave = append(sc.leave, func() {
		timer.Stop()
		leave()
	})
	return ch.Convert(t)
}

// endRequests ends the requests built in scope sc: a handler serving
// one until its client leaves returns.
func (sc *scope) endRequests() {
	for _, cancel := range sc.leave {
		cancel()
	}
}

// sharedValue returns the test's shared value i (KShared) for a
// parameter of type t: built at its first use in the set-up, the same
// value afterwards.
func (r *Registry) sharedValue(i int, t reflect.Type, sc *scope) (reflect.Value, error) {
	if i < 0 || i >= len(sc.shared) {
		return reflect.Value{}, fmt.Errorf("no shared value %d", i)
	}
	if x, ok := sc.built[i]; ok {
		return assign(x, t)
	}
	x, err := r.build(sc.shared[i], t, sc)
	if err != nil {
		return reflect.Value{}, fmt.Errorf("shared value %d: %w", i, err)
	}
	if sc.built == nil {
		sc.built = map[int]reflect.Value{}
	}
	sc.built[i] = x
	return x, nil
}

// freshSerial numbers the KFresh values of the process.
var freshSerial atomic.Uint64

// build returns the value v describes, for a parameter of type t, in
// scope sc.
func (r *Registry) build(v Value, t reflect.Type, sc *scope) (reflect.Value, error) {
	switch v.K {
	case KFresh:
		x, err := literal(fmt.Sprintf("%s%d", v.Lit, freshSerial.Add(1)), t)
		if err != nil {
			return reflect.Value{}, err
		}
		return assign(x, t)
	case KPath:
		dir, err := r.newDir()
		if err != nil {
			return reflect.Value{}, err
		}
		x, err := literal(filepath.Join(dir, v.Lit), t)
		if err != nil {
			return reflect.Value{}, err
		}
		return assign(x, t)
	case KLit:
		lt := t
		if t.Kind() == reflect.Interface {
			lt = basicTypes[v.Basic]
			if lt == nil {
				return reflect.Value{}, fmt.Errorf("literal %q: unknown basic type %q", v.Lit, v.Basic)
			}
		}
		x, err := literal(v.Lit, lt)
		if err != nil {
			return reflect.Value{}, err
		}
		return assign(x, t)
	case KObj:
		if v.Obj < 0 || v.Obj >= len(sc.objs) {
			return reflect.Value{}, fmt.Errorf("no shared object %d", v.Obj)
		}
		return assign(sc.objs[v.Obj], t)
	case KResult:
		if v.Prefix < 0 || v.Prefix >= len(sc.results) || v.Result >= len(sc.results[v.Prefix]) {
			return reflect.Value{}, fmt.Errorf("no result %d of prefix call %d", v.Result, v.Prefix)
		}
		x := sc.results[v.Prefix][v.Result]
		if x.Kind() == reflect.Interface && !x.IsNil() && !x.Type().AssignableTo(t) {
			x = x.Elem()
		}
		return assign(x, t)
	case KCall:
		if v.Call == nil {
			return reflect.Value{}, fmt.Errorf("call value without a call")
		}
		x, err := r.construct(*v.Call, sc)
		if err != nil {
			return reflect.Value{}, err
		}
		if x.Kind() == reflect.Interface && !x.IsNil() && !x.Type().AssignableTo(t) {
			x = x.Elem() // the dynamic value may fit where the interface does not
		}
		return assign(x, t)
	case KCtx:
		if v.Lit == CtxLeave {
			ctx, cancel := context.WithTimeout(context.Background(), RequestTimeout)
			sc.leave = append(sc.leave, cancel)
			// The deadline ends ctx; cancel then releases its resources.
			context.AfterFunc(ctx, cancel)
			return assign(reflect.ValueOf(&ctx).Elem(), t)
		}
		ctx, err := newContext(v.Lit)
		if err != nil {
			return reflect.Value{}, err
		}
		return assign(reflect.ValueOf(&ctx).Elem(), t)
	case KFunc:
		if v.Type == "" {
			return newFunc(v.Lit, t)
		}
		zero := r.types[v.Type]
		if zero == nil {
			return reflect.Value{}, fmt.Errorf("func of unregistered type %q", v.Type)
		}
		f, err := newFunc(v.Lit, reflect.TypeOf(zero()).Elem())
		if err != nil {
			return reflect.Value{}, err
		}
		return assign(f, t)
	case KStub:
		zero := r.types[v.Type]
		if zero == nil {
			return reflect.Value{}, fmt.Errorf("stub of unregistered type %q", v.Type)
		}
		return assign(reflect.ValueOf(zero()), t) // a new *T
	case KConn:
		return r.newConn(v, t, sc)
	case KListener:
		return r.newListener(t, sc)
	case KResponse:
		return newResponse(t)
	case KRequest:
		return newRequest(t, sc)
	case KPeer:
		return peerEnd(t, sc)
	case KShared:
		return r.sharedValue(v.Index, t, sc)
	case KFuncRef:
		fn, ok := r.funcs[v.Lit]
		if !ok || !fn.Type().ConvertibleTo(t) {
			return reflect.Value{}, fmt.Errorf("function %q for parameter of type %s", v.Lit, t)
		}
		return fn.Convert(t), nil
	case KReader:
		return newReader(v.Lit, t)
	case KWriter:
		return newWriter(t)
	case KZero:
		return reflect.Zero(t), nil
	case KNew:
		if t.Kind() != reflect.Pointer {
			return reflect.Value{}, fmt.Errorf("new value for parameter of type %s", t)
		}
		return reflect.New(t.Elem()), nil
	case KSlice:
		if t.Kind() != reflect.Slice {
			return reflect.Value{}, fmt.Errorf("slice value for parameter of type %s", t)
		}
		s := reflect.MakeSlice(t, len(v.Elems), len(v.Elems))
		for i, e := range v.Elems {
			x, err := r.build(e, t.Elem(), sc)
			if err != nil {
				return reflect.Value{}, err
			}
			s.Index(i).Set(x)
		}
		return s, nil
	case KStruct:
		st := t
		if t.Kind() == reflect.Pointer {
			st = t.Elem()
		}
		if st.Kind() != reflect.Struct {
			return reflect.Value{}, fmt.Errorf("struct value for parameter of type %s", t)
		}
		x := reflect.New(st)
		for _, e := range v.Elems {
			f := x.Elem().FieldByName(e.Field)
			if !f.IsValid() || !f.CanSet() {
				return reflect.Value{}, fmt.Errorf("%s has no field %s to set", st, e.Field)
			}
			fv, err := r.build(e, f.Type(), sc)
			if err != nil {
				return reflect.Value{}, fmt.Errorf("field %s: %w", e.Field, err)
			}
			f.Set(fv)
		}
		if t.Kind() == reflect.Pointer {
			return x, nil
		}
		return x.Elem(), nil
	case KMap:
		if t.Kind() != reflect.Map {
			return reflect.Value{}, fmt.Errorf("map value for parameter of type %s", t)
		}
		return reflect.MakeMap(t), nil
	case KChan:
		if t.Kind() != reflect.Chan {
			return reflect.Value{}, fmt.Errorf("chan value for parameter of type %s", t)
		}
		if v.Lit == ChanLeave {
			return leavingChan(t, sc), nil
		}
		if t.ChanDir() != reflect.BothDir {
			// A directional channel parameter (<-chan T) gets a
			// bidirectional channel converted to its type.
			return reflect.MakeChan(reflect.ChanOf(reflect.BothDir, t.Elem()), 1).Convert(t), nil
		}
		return reflect.MakeChan(t, 1), nil
	}
	return reflect.Value{}, fmt.Errorf("unknown value kind %q", v.K)
}

// newContext returns the context lit names: "" for context.Background(),
// "cancelled" for a context that is already cancelled, "timeout" for one
// whose deadline is a millisecond away.
func newContext(lit string) (context.Context, error) {
	switch lit {
	case "":
		return context.Background(), nil
	case "cancelled":
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx, nil
	case "timeout":
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		// The deadline ends ctx; cancel then releases its resources.
		context.AfterFunc(ctx, cancel)
		return ctx, nil
	}
	return nil, fmt.Errorf("unknown context %q", lit)
}

// newFunc returns a function of type t that returns zero values (lit "")
// or, for lit "true", true for results of kind bool, 1 for numeric ones
// and zero values for the others, so that a callback asked whether to go
// on says yes. An empty-interface result is the first argument, when
// there is one: a loader returns its key, as nil is often refused.
func newFunc(lit string, t reflect.Type) (reflect.Value, error) {
	if t.Kind() == reflect.Interface && t.NumMethod() == 0 {
		// A listener held as an interface{}: a func(...interface{})
		// takes whatever it is called with.
		f, err := newFunc(lit, reflect.TypeOf(func(...interface{}) {}))
		if err != nil {
			return reflect.Value{}, err
		}
		return assign(f, t)
	}
	if t.Kind() != reflect.Func {
		return reflect.Value{}, fmt.Errorf("func value for parameter of type %s", t)
	}
	if lit != "" && lit != "true" {
		return reflect.Value{}, fmt.Errorf("unknown func %q", lit)
	}
	return reflect.MakeFunc(t, func(args []reflect.Value) []reflect.Value {
		out := make([]reflect.Value, t.NumOut())
		for i := range out {
			out[i] = reflect.Zero(t.Out(i))
			if lit == "true" {
				out[i] = oneOf(t.Out(i))
			}
			if o := t.Out(i); o.Kind() == reflect.Interface && o.NumMethod() == 0 && len(args) > 0 &&
				args[0].Type().AssignableTo(o) {
				// A loader returns its key: a nil value is often refused.
				out[i] = args[0].Convert(o)
			}
		}
		return out
	}), nil
}

// oneOf returns true, or 1, as a value of type t, or the zero value when t
// is neither boolean nor numeric.
func oneOf(t reflect.Type) reflect.Value {
	x := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Bool:
		x.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x.SetUint(1)
	case reflect.Float32, reflect.Float64:
		x.SetFloat(1)
	case reflect.Complex64, reflect.Complex128:
		x.SetComplex(1)
	}
	return x
}

// assign converts x for a parameter of type t: it dereferences or takes
// the address of x when t wants the value or a pointer to it, and converts
// a basic value to a named basic type.
func assign(x reflect.Value, t reflect.Type) (reflect.Value, error) {
	switch {
	case x.Type().AssignableTo(t):
		return x, nil
	case x.Kind() == reflect.Pointer && x.Type().Elem().AssignableTo(t):
		if x.IsNil() {
			return reflect.Value{}, fmt.Errorf("nil %s for parameter of type %s", x.Type(), t)
		}
		return x.Elem(), nil
	case t.Kind() == reflect.Pointer && x.Type().AssignableTo(t.Elem()):
		p := reflect.New(t.Elem())
		p.Elem().Set(x)
		return p, nil
	case x.Kind() != reflect.Pointer && x.Kind() != reflect.Interface && x.Type().ConvertibleTo(t) &&
		x.Kind() == t.Kind():
		return x.Convert(t), nil
	}
	return reflect.Value{}, fmt.Errorf("%s value for parameter of type %s", x.Type(), t)
}

// literal parses lit as a value of the basic type t.
func literal(lit string, t reflect.Type) (reflect.Value, error) {
	x := reflect.New(t).Elem()
	var err error
	switch k := t.Kind(); k {
	case reflect.Bool:
		var b bool
		b, err = strconv.ParseBool(lit)
		x.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		switch lit {
		case "max":
			x.SetInt(1<<uint(bits-1) - 1)
		case "min":
			x.SetInt(-1 << uint(bits-1))
		default:
			var n int64
			n, err = strconv.ParseInt(lit, 0, bits)
			x.SetInt(n)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		switch lit {
		case "max":
			x.SetUint(math.MaxUint64 >> uint(64-t.Bits()))
		case "min":
		default:
			var n uint64
			n, err = strconv.ParseUint(lit, 0, t.Bits())
			x.SetUint(n)
		}
	case reflect.Float32, reflect.Float64:
		switch lit {
		case "max":
			x.SetFloat(math.MaxFloat64)
			if k == reflect.Float32 {
				x.SetFloat(math.MaxFloat32)
			}
		case "min":
			x.SetFloat(-math.MaxFloat64)
			if k == reflect.Float32 {
				x.SetFloat(-math.MaxFloat32)
			}
		default:
			var f float64
			f, err = strconv.ParseFloat(lit, t.Bits())
			x.SetFloat(f)
		}
	case reflect.Complex64, reflect.Complex128:
		var c complex128
		c, err = strconv.ParseComplex(lit, t.Bits())
		x.SetComplex(c)
	case reflect.String:
		x.SetString(lit)
	default:
		return reflect.Value{}, fmt.Errorf("literal %q for non-basic type %s", lit, t)
	}
	if err != nil {
		return reflect.Value{}, fmt.Errorf("literal for %s: %w", t, err)
	}
	return x, nil
}
