// Package harness is the part of depcon test that runs inside the child process.
//
// It builds the shared objects of a test description by reflection,
// runs the sequential prefix, releases the two suffix goroutines
// together, and watches them for panics and deadlocks.
//
// The driver adds the source of this package to the package under test
// through go test -overlay, with the package clause rewritten and every
// package-level identifier prefixed, so it must import nothing but the
// standard library, and composite literal keys must never be names
// declared at package level.
//
// The files are compiled at the language version of the package under
// test, which may be as old as go1.13: they use no generics (not even
// calls of generic functions of the standard library), no any, min, max
// or clear, no range over integers, and no function literal refers to a
// variable declared by a for or range clause (shared by all iterations
// before go1.22). Builtins cannot be prefixed, so the files also avoid the
// predeclared names a package may declare for itself: any, min, max,
// clear, new, copy, close, delete, cap, print, println, complex, real and
// imag. The tests of this package check all of this.
//
// A generated registration file registers the types under test and the
// constructors by name and calls Serve from a test function. It is
// compiled under the same constraints: RegisterTypeOf("T", (*T)(nil))
// registers a type without any or new.
//
// The child reads one Request per line of standard input and answers on
// file descriptor 3 with Messages: EvStep before each sequential step of
// the first iteration (so that the driver can tell which call a crash
// happened in) and before the set-up and the suffixes of later
// iterations, EvTick while iterations run, and one EvResult.
//
// Each iteration sets up fresh shared objects before the suffixes run,
// every step watched for blocking: the constructors, the prefix calls and
// the building of the suffix arguments. A constructor may return *T, T or
// an interface holding either, with an optional second result, an error
// or a bool, that says whether it succeeded. In the first iteration, a
// prefix call that returns an error is dropped and the objects are kept;
// one that panics is dropped too, but the objects are discarded, since
// the panic may have left one of them locked, and the setup is made again
// from fresh objects (see Drop). Setup that fails where it succeeded
// before (a prefix call panicking again, a constructor failing in a later
// iteration) ends the request with StatusSetupFailed: a half-built object
// never reaches the suffixes.
package harness

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"sync"
	"time"
)

// A Registry holds the types under test and the functions a test may call
// by name.
type Registry struct {
	types map[string]func() interface{} // name -> zero value factory returning *T
	funcs map[string]reflect.Value
	// methods holds, by type and method name, the method expressions of
	// the unexported methods (reflection cannot call those by name).
	methods map[string]map[string]reflect.Value
	// badTypes explains why a type was not registered.
	badTypes map[string]string
	// dirs are the directories made for KPath values during the current
	// request, removed when it ends.
	dirsMu sync.Mutex
	dirs   []string
	// conns are both ends of the connections made for KConn values,
	// and the listeners made for KListener values, since the last
	// iteration began, closed when it is over.
	connsMu sync.Mutex
	conns   []io.Closer
	// index caches the index of an exported method in its receiver
	// type's method set (MethodByName searches and allocates at each
	// call, and a test looks its methods up every iteration).
	indexMu sync.Mutex
	index   map[methodKey]int
	// board, when set, is the file the step being run is written to
	// (see StepFDEnv), instead of an EvStep message.
	board *os.File
}

// A methodKey names a method of a receiver type.
type methodKey struct {
	recv reflect.Type
	name string
}

// registry is the registry the generated registration file fills.
var registry = NewRegistry()

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{types: map[string]func() interface{}{}, funcs: map[string]reflect.Value{},
		methods: map[string]map[string]reflect.Value{}, badTypes: map[string]string{}}
}

// RegisterType registers the type under test name; zero returns a pointer
// to a new zero value of it.
func RegisterType(name string, zero func() interface{}) { registry.RegisterType(name, zero) }

// RegisterTypeOf registers the type under test name, given a *T: its
// zero values are made by reflection. Unlike RegisterType it needs no
// any or new, which a package may redeclare: RegisterTypeOf("T", (*T)(nil)).
func RegisterTypeOf(name string, ptr interface{}) { registry.RegisterTypeOf(name, ptr) }

// RegisterFunc registers a constructor by name.
func RegisterFunc(name string, fn interface{}) { registry.RegisterFunc(name, fn) }

// RegisterType registers the type under test name; zero returns a pointer
// to a new zero value of it.
func (r *Registry) RegisterType(name string, zero func() interface{}) { r.types[name] = zero }

// RegisterTypeOf registers the type under test name, given a *T (nil or
// not): its zero values are made by reflection. When ptr is not a
// pointer, requests about name fail with StatusError.
func (r *Registry) RegisterTypeOf(name string, ptr interface{}) {
	pt := reflect.TypeOf(ptr)
	if pt == nil || pt.Kind() != reflect.Pointer {
		r.badTypes[name] = fmt.Sprintf("type %q registered with a %T, not a pointer to it", name, ptr)
		return
	}
	r.types[name] = func() interface{} { return reflect.New(pt.Elem()).Interface() }
}

// RegisterFunc registers a constructor by name.
func (r *Registry) RegisterFunc(name string, fn interface{}) { r.funcs[name] = reflect.ValueOf(fn) }

// RegisterMethod registers the method expression fn ((*T).m, taking
// the receiver first) of method m of the type under test typ, for a
// method reflection cannot call by name: an unexported one.
func RegisterMethod(typ, m string, fn interface{}) { registry.RegisterMethod(typ, m, fn) }

// RegisterMethod registers the method expression fn of method m of typ.
func (r *Registry) RegisterMethod(typ, m string, fn interface{}) {
	if r.methods[typ] == nil {
		r.methods[typ] = map[string]reflect.Value{}
	}
	r.methods[typ][m] = reflect.ValueOf(fn)
}

// Serve answers requests on standard input until it is closed. Messages
// go to file descriptor 3; steps to the step board at descriptor 4 when
// the environment's StepFDEnv says so.
func Serve() error {
	out := os.NewFile(3, "depcon-results")
	if out == nil {
		return errors.New("harness: file descriptor 3 is not open")
	}
	defer out.Close()
	if os.Getenv(StepFDEnv) == "4" {
		registry.board = os.NewFile(4, "depcon-step")
	}
	return registry.Serve(os.Stdin, out)
}

// Serve answers the requests read from in, writing messages to out.
func (r *Registry) Serve(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	w := &writer{w: out}
	for sc.Scan() {
		var req Request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return fmt.Errorf("harness: bad request: %w", err)
		}
		res := r.Do(req, w.send)
		res.Ev = EvResult
		if err := w.send(res); err != nil {
			return err
		}
	}
	return sc.Err()
}

// A writer sends messages, one JSON object per line, each in one write.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) send(m Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.w.Write(append(b, '\n'))
	return err
}

// Do runs one request, reporting progress through send, and returns its
// result.
func (r *Registry) Do(req Request, send func(Message) error) Message {
	x := &execution{r: r, req: req, send: send, watchdog: req.Watchdog, settled: -1}
	if x.watchdog <= 0 {
		x.watchdog = time.Second
	}
	if req.HardCap < x.watchdog {
		x.req.HardCap = 10 * x.watchdog
	}
	if msg, ok := r.badTypes[req.Test.Type]; ok {
		return Message{Status: StatusError, Goroutine: -1, Msg: msg}
	}
	if _, ok := r.types[req.Test.Type]; !ok {
		return Message{Status: StatusError, Goroutine: -1, Msg: fmt.Sprintf("unknown type %q", req.Test.Type)}
	}
	defer r.removeDirs()
	defer r.closeConns()
	switch req.Op {
	case OpRun:
		if len(req.Test.Suffix) != 2 {
			return Message{Status: StatusError, Goroutine: -1, Msg: "a concurrent test needs two suffix calls"}
		}
		if req.Sched != nil {
			// A schedule lets one of the two calls run at a time: on one P
			// its hand-offs, and the iteration's goroutines and messages,
			// are goroutine switches, not wake-ups of OS threads, which
			// makes a scheduled test about twice as fast. Stress tests
			// keep every P: their calls must run in parallel.
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		}
		return x.run()
	case OpSeq:
		return x.seq()
	case OpTrace:
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // the calls run one after the other
		return x.trace()
	}
	return Message{Status: StatusError, Goroutine: -1, Msg: fmt.Sprintf("unknown operation %q", req.Op)}
}

// An execution is the state of one request.
type execution struct {
	r        *Registry
	req      Request
	send     func(Message) error
	watchdog time.Duration
	// dropped are the prefix calls dropped in the first iteration, and
	// dropReasons why, in the order they were dropped.
	dropped     map[int]bool
	dropReasons []Drop
	// ref is the outcome of the sequential orders the linearizability
	// oracle compares with, nil when it is off; linOff says why it is
	// off although the request asked for it.
	ref    *reference
	linOff string
	// linVaried is set when an outcome matched only after more runs of
	// the sequential orders (Message.LinVaried).
	linVaried bool
	// linBase is the number of goroutines before the iterations.
	linBase int
	// prefixBusy is set when an iteration's prefix left goroutines
	// running: the outcomes of this test's later iterations are not
	// compared.
	prefixBusy bool
	// settled is the number of goroutines after the last sequential
	// order, -1 before the first (settledGoroutines).
	settled int
}

// An outcome is what one call did.
type outcome struct {
	results []reflect.Value
	err     error  // the call could not be made, or returned a non-nil error
	panic   string // the panic value, if it panicked
	stack   string // the stack of the panic
	elapsed time.Duration
}

func (o *outcome) failed() bool { return o.err != nil || o.panic != "" }

func (o *outcome) String() string {
	if o.panic != "" {
		return "panic: " + o.panic
	}
	if o.err != nil {
		return o.err.Error()
	}
	return "ok"
}

// call calls fn with the arguments described by args, recovering a panic.
func (r *Registry) call(fn reflect.Value, args []Value, sc *scope) (o outcome) {
	in, err := r.args(fn.Type(), args, sc)
	if err != nil {
		return outcome{err: err}
	}
	return invoke(fn, in)
}

// args builds the arguments of a call to a function of type ft.
func (r *Registry) args(ft reflect.Type, args []Value, sc *scope) ([]reflect.Value, error) {
	if len(args) != ft.NumIn() {
		return nil, fmt.Errorf("%d arguments for %d parameters", len(args), ft.NumIn())
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		x, err := r.build(a, ft.In(i), sc)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		in[i] = x
	}
	return in, nil
}

// invoke calls fn, recovering a panic. A non-nil error as last result is
// reported in err.
func invoke(fn reflect.Value, in []reflect.Value) (o outcome) {
	start := time.Now()
	defer func() {
		o.elapsed = time.Since(start)
		if p := recover(); p != nil {
			o.panic = fmt.Sprint(p)
			o.stack = ownStack()
		}
	}()
	if fn.Type().IsVariadic() {
		o.results = fn.CallSlice(in)
	} else {
		o.results = fn.Call(in)
	}
	if n := len(o.results); n > 0 {
		last := o.results[n-1]
		if last.Type() == errorType && !last.IsNil() {
			o.err = last.Interface().(error)
		}
	}
	return o
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// construct runs a constructor call and returns its first result. The
// constructor fails when it panics or when it has a second result that is
// a non-nil error or false.
func (r *Registry) construct(c Call, sc *scope) (reflect.Value, error) {
	fn, ok := r.funcs[c.Fn]
	if !ok {
		return reflect.Value{}, fmt.Errorf("unknown function %q", c.Fn)
	}
	if fn.Type().NumOut() == 0 {
		return reflect.Value{}, fmt.Errorf("%s returns nothing", c.Fn)
	}
	o := r.call(fn, c.Args, sc)
	if o.failed() {
		return reflect.Value{}, fmt.Errorf("%s: %s", c.Fn, o.String())
	}
	if n := len(o.results); n > 1 && o.results[n-1].Kind() == reflect.Bool && !o.results[n-1].Bool() {
		return reflect.Value{}, fmt.Errorf("%s returned false", c.Fn)
	}
	return o.results[0], nil
}

// method returns the method named by c of its receiver.
func (r *Registry) method(typ string, c Call, sc *scope) (reflect.Value, error) {
	if c.Recv < 0 || c.Recv >= len(sc.objs) {
		return reflect.Value{}, fmt.Errorf("no shared object %d", c.Recv)
	}
	recv := sc.objs[c.Recv]
	if i := r.methodIndex(recv.Type(), c.Fn); i >= 0 {
		return recv.Method(i), nil
	}
	fn, ok := r.methods[typ][c.Fn]
	if !ok {
		return reflect.Value{}, fmt.Errorf("no method %s", c.Fn)
	}
	return bind(fn, recv), nil
}

// methodIndex returns the index of the exported method name in the
// method set of t, or -1.
func (r *Registry) methodIndex(t reflect.Type, name string) int {
	r.indexMu.Lock()
	defer r.indexMu.Unlock()
	k := methodKey{t, name}
	if i, ok := r.index[k]; ok {
		return i
	}
	i := -1
	if m, ok := t.MethodByName(name); ok {
		i = m.Index
	}
	if r.index == nil {
		r.index = map[methodKey]int{}
	}
	r.index[k] = i
	return i
}

// bind returns the method expression fn bound to receiver recv: a
// function of the method's own type.
func bind(fn, recv reflect.Value) reflect.Value {
	ft := fn.Type()
	in := make([]reflect.Type, 0, ft.NumIn()-1)
	for i := 1; i < ft.NumIn(); i++ {
		in = append(in, ft.In(i))
	}
	out := make([]reflect.Type, 0, ft.NumOut())
	for i := 0; i < ft.NumOut(); i++ {
		out = append(out, ft.Out(i))
	}
	mt := reflect.FuncOf(in, out, ft.IsVariadic())
	return reflect.MakeFunc(mt, func(args []reflect.Value) []reflect.Value {
		all := append([]reflect.Value{recv.Convert(ft.In(0))}, args...)
		if ft.IsVariadic() {
			return fn.CallSlice(all)
		}
		return fn.Call(all)
	})
}
