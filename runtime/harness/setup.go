package harness

import (
	"fmt"
	"reflect"
	"runtime"
)

// A prepared test is ready for its suffixes: the shared objects after the
// prefix, and the suffix methods with their arguments.
type prepared struct {
	sc  scope
	fns []reflect.Value
	ins [][]reflect.Value
	// base is the number of goroutines once the objects were built,
	// before the prefix ran.
	base int
}

// A phase says which setup of a request is being made, and so what a
// failure in it means.
type phase int

const (
	// firstSetup is the first setup of the first iteration: a
	// constructor that fails is StatusObjectFailed, a prefix call that
	// fails is dropped.
	firstSetup phase = iota
	// rebuild is the setup that follows a prefix call panicking in
	// firstSetup: fresh objects, the prefix without the dropped calls.
	// A prefix call that panics again is StatusSetupFailed.
	rebuild
	// laterSetup is the setup of a later iteration: every failure but a
	// prefix call returning an error is StatusSetupFailed.
	laterSetup
)

// prepareFirst prepares the first iteration, each step announced to the
// driver. A prefix call that returns an error is dropped and the objects
// are kept; a prefix call that panics is dropped and the objects are
// discarded, since it may have left them in any state (a lock held): the
// setup is made again with fresh objects, once.
func (x *execution) prepareFirst() (*prepared, *Message) {
	x.dropped = map[int]bool{}
	p, res, again := x.setup(firstSetup)
	if again {
		p, res, _ = x.setup(rebuild)
	}
	return p, res
}

// prepareNext prepares a later iteration with the prefix calls kept by
// the first one.
func (x *execution) prepareNext() (*prepared, *Message) {
	p, res, _ := x.setup(laterSetup)
	return p, res
}

// setup builds the shared objects, runs the prefix without the dropped
// calls and builds the suffix arguments, each step watched on its own. It
// returns the prepared test, or the failure, or again when a prefix call
// panicked in firstSetup and was dropped.
func (x *execution) setup(ph phase) (p *prepared, res *Message, again bool) {
	t := x.req.Test
	p = &prepared{}
	p.sc.results = make([][]reflect.Value, len(t.Prefix))
	p.sc.shared = t.Shared
	for i := range t.Objects {
		step := fmt.Sprintf("object %d", i)
		obj, res := x.setupObject(ph, step, t.Objects[i], &p.sc)
		if res != nil {
			return nil, res, false
		}
		p.sc.objs = append(p.sc.objs, obj)
	}
	p.base = runtime.NumGoroutine()
	for i := range t.Prefix {
		if x.dropped[i] {
			continue
		}
		c := t.Prefix[i]
		step := fmt.Sprintf("prefix %d", i)
		sc := &p.sc
		o, res := x.watch(ph, step, func() outcome { return x.callMethod(c, sc) })
		if res != nil {
			res.Dropped = x.drops()
			return nil, res, false
		}
		switch {
		case o.panic != "" && ph == firstSetup:
			x.drop(i, c, o)
			return nil, nil, true
		case o.panic != "":
			return nil, x.setupFailed(step, fmt.Sprintf("%s: %s", c.Fn, o.String()), o.stack), false
		case o.err != nil && ph != laterSetup:
			x.drop(i, c, o)
		case o.err == nil:
			p.sc.results[i] = o.results
		}
	}
	var err error
	_, res = x.watch(ph, "args", func() outcome {
		err = x.suffixArgs(p)
		return outcome{}
	})
	if res != nil {
		res.Dropped = x.drops()
		return nil, res, false
	}
	if err != nil {
		if ph == laterSetup {
			return nil, x.setupFailed("args", err.Error(), ""), false
		}
		return nil, &Message{Status: StatusArgsFailed, Step: "args", Goroutine: -1, Msg: err.Error(), Dropped: x.drops()}, false
	}
	return p, nil, false
}

// setupObject builds the shared object of step with constructor c.
func (x *execution) setupObject(ph phase, step string, c Call, sc *scope) (reflect.Value, *Message) {
	var obj reflect.Value
	var err error
	_, res := x.watch(ph, step, func() outcome {
		obj, err = x.newObject(c, sc)
		return outcome{}
	})
	switch {
	case res != nil:
		res.Dropped = x.drops()
		return reflect.Value{}, res
	case err != nil && ph == firstSetup:
		return reflect.Value{}, &Message{Status: StatusObjectFailed, Step: step, Goroutine: -1, Msg: err.Error()}
	case err != nil:
		// It succeeded in the first setup.
		return reflect.Value{}, x.setupFailed(step, err.Error(), "")
	}
	return obj, nil
}

// watch runs f as the sequential step named step, announced to the driver
// in the first iteration.
func (x *execution) watch(ph phase, step string, f func() outcome) (outcome, *Message) {
	if ph != laterSetup {
		x.progress(step)
	}
	return x.step(step, f)
}

// drop drops prefix call i, which failed with o, from this and later
// setups.
func (x *execution) drop(i int, c Call, o outcome) {
	x.dropped[i] = true
	x.dropReasons = append(x.dropReasons, Drop{Index: i, Reason: fmt.Sprintf("%s: %s", c.Fn, o.String())})
}

// setupFailed returns the StatusSetupFailed result of step.
func (x *execution) setupFailed(step, msg, stack string) *Message {
	res := &Message{Status: StatusSetupFailed, Step: step, Goroutine: -1, Msg: msg, Dropped: x.drops()}
	res.Stacks[0] = stack
	return res
}

// suffixArgs finds the suffix methods and builds their arguments.
func (x *execution) suffixArgs(p *prepared) error {
	for i, c := range x.req.Test.Suffix {
		m, err := x.r.method(x.req.Test.Type, c, &p.sc)
		if err != nil {
			return fmt.Errorf("suffix %d: %w", i, err)
		}
		in, err := x.r.args(m.Type(), c.Args, &p.sc)
		if err != nil {
			return fmt.Errorf("suffix %d: %s: %w", i, c.Fn, err)
		}
		p.fns = append(p.fns, m)
		p.ins = append(p.ins, in)
	}
	return nil
}

// callMethod makes the method call c.
func (x *execution) callMethod(c Call, sc *scope) outcome {
	m, err := x.r.method(x.req.Test.Type, c, sc)
	if err != nil {
		return outcome{err: err}
	}
	return x.r.call(m, c.Args, sc)
}

// newObject makes a shared object: a pointer to a value of the type under
// test, built by constructor c or, when c.Fn is "", the zero value, or
// the literal its one KStruct argument describes.
func (x *execution) newObject(c Call, sc *scope) (reflect.Value, error) {
	zero := reflect.ValueOf(x.r.types[x.req.Test.Type]())
	if c.Fn == "" {
		if len(c.Args) == 1 && c.Args[0].K == KStruct {
			return x.r.build(c.Args[0], zero.Type(), sc)
		}
		return zero, nil
	}
	v, err := x.r.construct(c, sc)
	if err != nil {
		return reflect.Value{}, err
	}
	return sharedObject(c.Fn, v, zero.Type())
}

// sharedObject returns v, the first result of constructor fn, as a shared
// object of pointer type pt: v may be a *T or a T (stored in a new *T), or
// an interface holding one of them.
func sharedObject(fn string, v reflect.Value, pt reflect.Type) (reflect.Value, error) {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}, fmt.Errorf("%s returned a nil %s", fn, v.Type())
		}
		v = v.Elem()
	}
	switch v.Type() {
	case pt:
		if v.IsNil() {
			return reflect.Value{}, fmt.Errorf("%s returned a nil %s", fn, pt)
		}
		return v, nil
	case pt.Elem():
		p := reflect.New(pt.Elem())
		p.Elem().Set(v)
		return p, nil
	}
	return reflect.Value{}, fmt.Errorf("%s returned %s, not %s", fn, v.Type(), pt)
}

// progress tells the driver that step is about to run. An error is left
// to the sending of the result.
func (x *execution) progress(step string) {
	if b := x.r.board; b != nil {
		var rec [StepRecord]byte
		n := 0
		for n < len(step) && n < StepRecord-1 {
			rec[n] = step[n]
			n++
		}
		rec[n] = '\n'
		if _, err := b.WriteAt(rec[:], 0); err == nil {
			return
		}
		x.r.board = nil // tell it as messages from now on
	}
	_ = x.send(Message{Ev: EvStep, Step: step, Goroutine: -1})
}

// drops returns a copy of the prefix calls dropped so far.
func (x *execution) drops() []Drop { return append([]Drop(nil), x.dropReasons...) }
