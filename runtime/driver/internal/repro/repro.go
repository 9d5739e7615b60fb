// Package repro writes the reproducer of a violation found by depcon test.
//
// A reproducer is a standalone _test.go file for the package under test,
// in the style of the DepCon+ paper's Figure 4 (a prefix, two goroutines
// released by a start barrier, a loop of N iterations, a deadlock
// detected by a timeout), that fails under go test -race while the bug
// is there.
package repro

import (
	"bytes"
	"fmt"
	"go/format"
	"go/types"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/testgen"
)

// A Violation is what the reproducer reproduces.
type Violation struct {
	Kind    string // "race", "panic", "deadlock", "fatal", "self-deadlock"
	Message string
	Seed    uint64
	Test    harness.Test // the failing test, without the prefix calls that failed
	Iters   int          // iterations of the loop
	Seq     bool         // a single sequential call (self-deadlock)
	// Schedule describes the schedule the violation was found under,
	// "" or "stress" for none; Replay is the depcon test command that
	// replays it.
	Schedule string
	Replay   string
	// Lin, for a non-linearizable outcome (Kind KindNotLinearizable), is
	// how the outcome was taken: which results, which observer calls.
	Lin *harness.Lin
	// Wait is how long the calls may run before the reproducer says
	// they do not return (DefaultWait when zero).
	Wait time.Duration
}

// DefaultWait is how long a reproducer's calls may run before it says
// they do not return, when the violation does not say.
const DefaultWait = 5 * time.Second

// wait returns the Go expression of v's wait and its text in messages.
func wait(v *Violation) (expr, text string) {
	d := v.Wait
	if d <= 0 {
		d = DefaultWait
	}
	if d%time.Second == 0 {
		return fmt.Sprintf("%d * time.Second", d/time.Second), d.String()
	}
	d = d.Round(time.Millisecond)
	return fmt.Sprintf("%d * time.Millisecond", d/time.Millisecond), d.String()
}

// KindNotLinearizable is the kind of a violation whose reproducer checks
// the outcome of the calls against their sequential orders.
const KindNotLinearizable = "not-linearizable"

// TestName returns the name of the reproducer's test function.
func TestName(s *testgen.Subject, v *Violation) string {
	name := "TestDepcon" + title(s.Plan.Name)
	for _, c := range v.Test.Suffix {
		name += title(c.Fn)
	}
	if v.Seq {
		name += "SelfDeadlock"
	}
	if v.Kind == KindNotLinearizable {
		name += "NotLinearizable"
	}
	return name
}

// FileName returns a file name for the reproducer.
func FileName(s *testgen.Subject, v *Violation) string {
	parts := []string{"depcon", s.Plan.Name}
	for _, c := range v.Test.Suffix {
		parts = append(parts, c.Fn)
	}
	if v.Kind == KindNotLinearizable {
		parts = append(parts, "lin")
	}
	return strings.ToLower(strings.Join(parts, "_")) + "_test.go"
}

func title(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// Source returns the reproducer of v for subject s, formatted. It
// compiles at any language version from go1.13 on: no generics, no
// range over an integer, no min or max.
func Source(s *testgen.Subject, v *Violation) ([]byte, error) {
	name := TestName(s, v)
	w := &writer{s: s, imports: map[string]string{"testing": "testing", "time": "time"}, test: &v.Test,
		prefix: "d" + strings.TrimPrefix(name, "TestD")}
	var body string
	if v.Kind == KindNotLinearizable {
		body = w.linBody(v)
	} else {
		body = w.body(v)
	}
	helpers := w.helpers() // before the imports: the helpers add some
	var b bytes.Buffer
	fmt.Fprintf(&b, "package %s\n\n", s.Pkg.Name())
	b.WriteString("import (\n")
	for _, path := range slices.Sorted(maps.Keys(w.imports)) {
		fmt.Fprintf(&b, "\t%q\n", path)
	}
	b.WriteString(")\n\n")
	what := strings.Join(w.calls(v), " and ") + " run concurrently"
	if v.Seq {
		what = w.calls(v)[0] + " runs alone"
	}
	kind := "a " + v.Kind
	if v.Kind == KindNotLinearizable {
		kind = "an outcome no sequential order gives"
	}
	fmt.Fprintf(&b, "// %s reproduces %s found by depcon test (seed %d)\n", name, kind, v.Seed)
	fmt.Fprintf(&b, "// in %s: %s.\n//\n//\t%s\n//\n", s.Plan.Name, what, oneLine(v.Message))
	fmt.Fprintf(&b, "// Run it with go test -race -run %s.\n", name)
	if v.Schedule != "" && v.Schedule != "stress" {
		fmt.Fprintf(&b, "//\n// depcon test found it under the schedule %s, which orders the two\n", oneLine(v.Schedule))
		b.WriteString("// calls at hooks it adds to a copy of the package; this test only repeats\n")
		b.WriteString("// the calls, and may need many runs to hit that order. To replay the\n")
		fmt.Fprintf(&b, "// schedule: %s\n", v.Replay)
	}
	fmt.Fprintf(&b, "func %s(t *testing.T) {\n%s}\n", name, body)
	b.WriteString(helpers)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the reproducer: %w\n%s", err, b.Bytes())
	}
	return src, nil
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// A writer writes the Go source of a test.
type writer struct {
	s       *testgen.Subject
	imports map[string]string // path -> name
	// pre holds the statements the next expression needs (temporaries
	// for results checked for an error, addresses, contexts).
	pre   []string
	temps int
	// peer is, while the call that builds a connection's peer is
	// written, the name of the connection's other end (harness.KPeer).
	peer string
	// closers are the connections to close at the end of an iteration.
	closers []string
	// test is the test being written; shared names the variables of its
	// shared values (harness.KShared) written so far, by index.
	test   *harness.Test
	shared map[int]string
	// readCloser and writeCloser are set when a helper type is needed.
	readCloser, writeCloser bool
	// leavers are the functions that end the contexts and close the
	// signal channels that end when a concurrent call returns
	// (harness.CtxLeave, harness.ChanLeave), until written.
	leavers []string
	// stubs name the stub types the test uses (testgen.StubSource), by
	// testgen.StubKey.
	stubs map[string]string
	// prefix begins the names of the types the file declares (stubs,
	// helpers): the test's own, so that the reproducers of one run build
	// together in one package.
	prefix string
}

// stubName returns the name of the stub of interface n, which the
// helpers declare.
func (w *writer) stubName(n *types.Named) string {
	key := testgen.StubKey(n)
	if w.stubs == nil {
		w.stubs = map[string]string{}
	}
	if w.stubs[key] == "" {
		w.stubs[key] = fmt.Sprintf("%sStub%d", w.prefix, len(w.stubs))
	}
	return w.stubs[key]
}

// temp returns a new temporary name.
func (w *writer) temp(base string) string {
	w.temps++
	return fmt.Sprintf("%s%d", base, w.temps)
}

// flush returns the pending statements, one per line, and forgets them.
func (w *writer) flush() string {
	if len(w.pre) == 0 {
		return ""
	}
	out := strings.Join(w.pre, "\n") + "\n"
	w.pre = nil
	return out
}

// calls returns the suffix calls as text, "a.Equal(b)".
func (w *writer) calls(v *Violation) []string {
	var out []string
	for _, c := range v.Test.Suffix {
		out = append(out, fmt.Sprintf("%s.%s", obj(c.Recv), c.Fn))
	}
	return out
}

func obj(i int) string { return string(rune('a' + i)) }

// SetupFailed is what a reproducer logs when it failed before the calls
// it reproduces: building the objects or a prefix call failed (a
// constructor's error, a panic), which says nothing of the violation.
const SetupFailed = "depcon: the test failed in its set-up, before the calls it reproduces"

// body writes the body of the test function.
func (w *writer) body(v *Violation) string {
	var b strings.Builder
	// A failure before the calls reproduced says so (SetupFailed), and
	// does not confirm the violation.
	fmt.Fprintf(&b, "setup := true\ndefer func() {\nif r := recover(); r != nil {\nif !setup {\npanic(r)\n}\n"+
		"t.Errorf(\"recovered %%v\", r)\n}\nif setup && t.Failed() {\nt.Log(%q)\n}\n}()\n", SetupFailed)
	fmt.Fprintf(&b, "for iter := 0; iter < %d; iter++ {\nsetup = true\n", max(v.Iters, 1))
	w.setup(&b, v)
	if v.Seq {
		c := v.Test.Suffix[0]
		e := w.methodCall(c)
		fmt.Fprintf(&b, "%ssetup = false\ndone := make(chan struct{})\ngo func() {\ndefer close(done)\n%s\n}()\n", w.flush(), e)
		expr, text := wait(v)
		fmt.Fprintf(&b, "select {\ncase <-done:\ncase <-time.After(%s):\n"+
			"t.Fatal(%q)\n}\n%s}\n", expr, fmt.Sprintf("self-deadlock: %s.%s did not return within %s", obj(c.Recv), c.Fn, text),
			w.closeConns())
		return b.String()
	}
	calls := w.suffixCalls(&b, v)
	// Both goroutines wait at the start barrier before it opens.
	b.WriteString("setup = false\nstart := make(chan struct{})\nvar ready, wg sync.WaitGroup\nready.Add(2)\nwg.Add(2)\n")
	w.imports["sync"] = "sync"
	// A call's return ends the contexts that last until then.
	leave := ""
	for _, cancel := range w.leavers {
		leave += "defer " + cancel + "()\n"
	}
	w.leavers = nil
	for i, c := range v.Test.Suffix {
		fmt.Fprintf(&b, "go func() {\ndefer wg.Done()\n%sdefer func() {\nif r := recover(); r != nil {\n"+
			"t.Errorf(\"%s.%s panicked: %%v\", r)\n}\n}()\nready.Done()\n<-start\n%s\n}()\n", leave, obj(c.Recv), c.Fn,
			calls[i])
	}
	b.WriteString("ready.Wait()\nclose(start)\ndone := make(chan struct{})\ngo func() {\nwg.Wait()\nclose(done)\n}()\n")
	names := w.calls(v)
	expr, text := wait(v)
	fmt.Fprintf(&b, "select {\ncase <-done:\ncase <-time.After(%s):\nt.Fatal(%q)\n}\n",
		expr, fmt.Sprintf("deadlock: %s and %s did not return within %s", names[0], names[1], text))
	b.WriteString(w.closeConns() + "if t.Failed() {\nreturn\n}\n}\n")
	return b.String()
}

// closeConns returns the statements that close the iteration's
// connections (harness.KConn), and forgets them.
func (w *writer) closeConns() string {
	var b strings.Builder
	for _, c := range w.closers {
		b.WriteString(c + ".Close()\n")
	}
	w.closers = nil
	return b.String()
}

// simple reports whether the expression of v can be repeated inline.
func simple(v harness.Value) bool {
	switch v.K {
	case harness.KLit, harness.KObj, harness.KZero, harness.KCtx:
		return true
	}
	return false
}

// object returns the expression that builds a shared object.
func (w *writer) object(c harness.Call) string {
	if c.Fn == "" {
		if len(c.Args) == 1 && c.Args[0].K == harness.KStruct {
			return w.expr(c.Args[0], types.NewPointer(w.s.Type))
		}
		return "&" + w.s.TypeExpr() + "{}"
	}
	return w.adapt(w.funcCall(c), w.s.Funcs[c.Fn], types.NewPointer(w.s.Type))
}

// funcCall returns the call of a function, without adaptation. A
// method expression is called with its receiver first, as in
// (*Builder).Build(b).
func (w *writer) funcCall(c harness.Call) string {
	f := w.s.Funcs[c.Fn]
	var args []string
	for j, a := range c.Args {
		args = append(args, w.expr(a, param(f.Sig, j)))
	}
	return w.join(harness.Call{Fn: w.funcExpr(f), Recv: -1}, f.Sig, args)
}

// methodCall returns the call c on its object, its arguments inline.
func (w *writer) methodCall(c harness.Call) string {
	sig := w.s.Methods[c.Fn]
	var args []string
	for j, a := range c.Args {
		args = append(args, w.expr(a, param(sig, j)))
	}
	return w.join(c, sig, args)
}

// join writes the call c with the argument expressions args; a
// variadic parameter's slice is passed with "...". A Recv of -1 calls a
// function.
func (w *writer) join(c harness.Call, sig *types.Signature, args []string) string {
	if sig.Variadic() && len(args) > 0 {
		args[len(args)-1] += "..."
	}
	fn := c.Fn
	if c.Recv >= 0 {
		fn = obj(c.Recv) + "." + c.Fn
	}
	return fn + "(" + strings.Join(args, ", ") + ")"
}

// helpers returns the helper types the test uses.
func (w *writer) helpers() string {
	var b strings.Builder
	if w.readCloser {
		fmt.Fprintf(&b, "\ntype %[1]sReadCloser struct{ *bytes.Reader }\n\nfunc (%[1]sReadCloser) Close() error { return nil }\n", w.prefix)
	}
	if w.writeCloser {
		fmt.Fprintf(&b, "\ntype %[1]sWriteCloser struct{ bytes.Buffer }\n\nfunc (*%[1]sWriteCloser) Close() error { return nil }\n"+
			"\nfunc (*%[1]sWriteCloser) Flush() error { return nil }\n\nfunc (*%[1]sWriteCloser) Sync() error { return nil }\n", w.prefix)
	}
	// A stub's interface results are stubs when the subject has one:
	// declaring a stub may name more, declared in turn.
	stubResult := func(n *types.Named) string {
		if w.s.Stub(testgen.StubKey(n)) == nil {
			return ""
		}
		return w.stubName(n)
	}
	for done := map[string]bool{}; len(done) < len(w.stubs); {
		for _, key := range slices.Sorted(maps.Keys(w.stubs)) {
			if !done[key] {
				done[key] = true
				b.WriteString(testgen.StubSource(w.s.Stub(key), w.stubs[key], w.qualifier, stubResult))
			}
		}
	}
	return b.String()
}

// setup writes the statements that build the shared objects and make the
// prefix calls, keeping in variables the results later calls are given
// (harness.KResult).
func (w *writer) setup(b *strings.Builder, v *Violation) {
	w.shared = nil // each set-up builds its own
	for i, c := range v.Test.Objects {
		e := w.object(c)
		fmt.Fprintf(b, "%s%s := %s\n", w.flush(), obj(i), e)
	}
	used := map[[2]int]bool{}
	var mark func(vs []harness.Value)
	mark = func(vs []harness.Value) {
		for _, a := range vs {
			if a.K == harness.KResult {
				used[[2]int{a.Prefix, a.Result}] = true
			}
			mark(a.Elems)
			if a.Call != nil {
				mark(a.Call.Args)
			}
		}
	}
	for _, cs := range [][]harness.Call{v.Test.Prefix, v.Test.Suffix} {
		for _, c := range cs {
			mark(c.Args)
		}
	}
	if v.Lin != nil {
		for _, c := range v.Lin.Observers {
			mark(c.Args)
		}
	}
	for i, c := range v.Test.Prefix {
		e := w.methodCall(c)
		var names []string
		kept := false
		for k := range w.s.Methods[c.Fn].Results().Len() {
			if used[[2]int{i, k}] {
				names = append(names, resultVar(i, k))
				kept = true
			} else {
				names = append(names, "_")
			}
		}
		if kept {
			e = strings.Join(names, ", ") + " := " + e
		}
		fmt.Fprintf(b, "%s%s\n", w.flush(), e)
	}
}

// resultVar names the variable holding result k of prefix call i.
func resultVar(i, k int) string { return fmt.Sprintf("p%dr%d", i, k) }

// funcExpr returns how the reproducer names function f: as the package
// under test does, or qualified by its own package, imported.
func (w *writer) funcExpr(f *testgen.Func) string {
	if f.Pkg == nil {
		return f.Expr
	}
	w.imports[f.Pkg.Path()] = f.Pkg.Name()
	return f.Pkg.Name() + "." + f.Expr
}
