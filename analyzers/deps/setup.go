package deps

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// setUp says why m, a method of a type whose methods are all, is a
// set-up method — one called before the object is shared, whose calls
// concurrent with the type's other methods break its contract rather
// than expose a bug — or returns "" (see Method.SetUp). This is the one
// definition of a set-up method: depcon test calls such methods in
// prefixes only, and unguarded does not take their writes for unguarded
// ones.
//
// A method is a set-up method when
//   - it is annotated //depcon:setup;
//   - its documentation says to call it before use ("must be called
//     before Start", "call it once, before serving"), or it calls on its
//     receiver a method whose documentation or directive says so;
//   - it is a fluent setter: it returns its receiver and writes no state
//     under a lock (WithSize(n) *T, chained after the constructor), or
//     such a setter of an embedded configuration struct, promoted;
//   - it is an option conversion: named With… and returning another type
//     of the package, taking no lock (a pool's WithErrors() *ErrorPool,
//     which wraps the pool before it is used);
//   - it is named as an initialiser (Init, InitShards) and takes no lock;
//   - it takes no lock and is the only writer, with plain writes, of
//     fields that the other methods read without synchronisation either
//     (SetHashFunc, a pool's Init): nothing in the type protects those
//     fields, so the type expects them set before it is shared.
//
// It is not, whatever its shape, when
//   - it ends the object's use (Close, Stop, Shutdown, Release: see
//     teardown): that runs while the object is in use;
//   - its documentation says it is safe for concurrent use ("a
//     thread-safe way of setting a header");
//   - it writes, taking no lock, a field that the other methods access
//     under a lock held at every access (see guardedElsewhere), unless
//     it is a fluent setter: the type guards that field, and the
//     unlocked write is a bug candidate;
//   - it switches the type's synchronisation off (Method.LockOff).
//
// Of a method whose summary was cut at its size limit, only the
// directive and the documentation say so.
func setUp(m *method, all []*method) string {
	fn := m.m.Func
	if fn == nil {
		return ""
	}
	if fn.Synthetic != "" {
		// A setter promoted from an embedded configuration struct
		// (Size(n) *Config, on a Cache embedding *Config) is the
		// configuration's fluent setter.
		if g := promotedFrom(fn); g != nil && returnsReceiver(g) && !writesLocked(m) && !teardown(m.m.Name) {
			return "it returns the configuration it is promoted from (a fluent setter)"
		}
		return ""
	}
	if args, ok := contract.Directive(m.doc, contract.DirSetUp); ok {
		return contract.Annotated(contract.DirSetUp, args)
	}
	if teardown(m.m.Name) || contract.Safe(m.doc) != "" {
		return "" // documented to run with the other calls
	}
	if phrase := contract.SetUp(m.doc); phrase != "" {
		return "doc: " + phrase
	}
	if name := callsSetUpDoc(fn, all); name != "" {
		return "it calls " + name + ", whose documentation says to call it before use"
	}
	if m.m.Summary.Truncated {
		// The other rules read the summary, which may have lost the
		// locked writes or the acquisitions that rule them out: only
		// the documentation says so of a method whose summary was cut.
		return ""
	}
	if returnsReceiver(fn) && !writesLocked(m) {
		return "it returns its receiver (a fluent setter)"
	}
	if guardedElsewhere(m, all) != "" {
		return ""
	}
	if t := convertsTo(fn); t != "" && len(m.m.Summary.Acquires) == 0 {
		return "it is an option conversion into " + t + ", made before use"
	}
	if initialiser(m.m.Name) && len(m.m.Summary.Acquires) == 0 {
		return "it is named as an initialiser (" + m.m.Name + ") and takes no lock"
	}
	if loc := soleUnsynchronisedWriter(m, all); loc != "" {
		return "it takes no lock and is the only writer of " + loc + ", which the other methods read without synchronisation"
	}
	return ""
}

// callsSetUpDoc returns the name of a method of the type that fn calls
// on its own receiver and whose documentation or directive makes it a
// set-up method ("must be called before Start"): what binds the callee
// binds the caller (a Pipe that calls SetBlocking). "" when it calls
// none.
func callsSetUpDoc(fn *ssa.Function, all []*method) string {
	if len(fn.Params) == 0 || fn.Signature.Recv() == nil {
		return ""
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(call.Call.Args) == 0 || call.Call.Args[0] != ssa.Value(fn.Params[0]) {
				continue
			}
			callee := call.Call.StaticCallee()
			for _, o := range all {
				if o.m.Func == nil || o.m.Func != callee || o.m.Func == fn {
					continue
				}
				if _, ok := contract.Directive(o.doc, contract.DirSetUp); ok || contract.SetUp(o.doc) != "" {
					return o.m.Name
				}
			}
		}
	}
	return ""
}

// Teardown reports whether a method's name says it ends the object's use
// (see teardown): such a method is never a set-up method, and depcon
// test never calls it in a prefix, where the concurrent calls would use
// a closed object.
func Teardown(name string) bool { return teardown(name) }

// teardown reports whether a method's name says it ends the object's use:
// its first word, in either case, is one of those of teardownWord
// (Close, CloseAll, stopWorkers, Shutdown, TearDown).
func teardown(name string) bool { return teardownWord(firstWord(name)) }

// firstWord returns the first word of a method's name, lower case:
// "close" for CloseAll and Close_all, "stop" for stopWorkers.
func firstWord(name string) string {
	for end := 1; end <= len(name); end++ {
		if end < len(name) && !unicode.IsUpper(rune(name[end])) && name[end] != '_' {
			continue
		}
		return strings.ToLower(name[:end])
	}
	return ""
}

// Restart reports whether a method's name says it brings an object back
// into use after its end (Reboot, Restart, Reopen, Resume): it is
// tested on objects whose use a prefix ended.
func Restart(name string) bool {
	switch firstWord(name) {
	case "reboot", "restart", "reopen", "resume", "revive", "reconnect", "relaunch":
		return true
	}
	return false
}

// teardownWord reports whether w, lower case, names the end of an
// object's use.
func teardownWord(w string) bool {
	switch w {
	case "close", "stop", "shutdown", "shut", "release", "dispose", "destroy", "terminate", "teardown", "tear",
		"quit", "kill", "abort", "free", "cleanup", "halt", "disconnect", "cancel", "unsubscribe", "unregister",
		"finish", "end":
		return true
	}
	return false
}

// guardedElsewhere returns a location that m writes with a plain write
// and no lock held, and that the other methods access with a lock held
// at every access: a lock that guards it; "" when there is none. A lock
// held at some of those accesses only guards nothing: a reader that
// happens to run in a critical section (cmux's Close, reading the
// matchers under the lock of its connections, which Serve reads
// without it) is no evidence of a guard.
func guardedElsewhere(m *method, all []*method) string {
	for _, w := range m.accesses {
		if !w.a.Write || w.call || w.a.Flags.Synchronized() || locked(w.a) {
			continue
		}
		var common []string
		seen := false
		for _, o := range all {
			if o == m {
				continue
			}
			for _, a := range o.accesses {
				if a.call || !lockstate.Compatible(w.loc, a.loc) {
					continue
				}
				held := heldLocks(a.a)
				if !seen {
					common, seen = held, true
				} else {
					common = slices.DeleteFunc(common, func(l string) bool { return !slices.Contains(held, l) })
				}
			}
		}
		if len(common) > 0 {
			return display(m, w.a.Loc)
		}
	}
	return ""
}

// heldLocks returns the locks held at a, but for those released and
// taken again since an earlier access (Broken).
func heldLocks(a summary.Access) []string {
	var out []string
	for _, h := range a.Held {
		if !h.Broken {
			out = append(out, h.Lock)
		}
	}
	return out
}

// initialiser reports whether a method's name says it initialises its
// receiver: Init, or Init followed by a word (InitShards), also
// unexported (init, initShards).
func initialiser(name string) bool {
	rest, ok := strings.CutPrefix(name, "init")
	if !ok {
		rest, ok = strings.CutPrefix(name, "Init")
	}
	return ok && (rest == "" || unicode.IsUpper([]rune(rest)[0]))
}

// promotedFrom returns the method a promotion wrapper calls, or nil.
func promotedFrom(fn *ssa.Function) *ssa.Function {
	var callee *ssa.Function
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if callee != nil || call.Call.StaticCallee() == nil {
				return nil
			}
			callee = call.Call.StaticCallee()
		}
	}
	if callee == nil || callee.Signature.Recv() == nil {
		return nil
	}
	return callee
}

// returnsReceiver reports whether every return of the method fn returns
// its receiver first, itself or as an interface.
func returnsReceiver(fn *ssa.Function) bool {
	if fn.Signature.Recv() == nil || fn.Signature.Results().Len() == 0 || len(fn.Params) == 0 {
		return false
	}
	recv := fn.Params[0]
	returns := 0
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		res := ret.Results
		if len(res) == 0 {
			return false
		}
		v := res[0]
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X // the receiver as an interface of the package (WithTTL(d) Cache)
		}
		if v != ssa.Value(recv) {
			return false
		}
		returns++
	}
	return returns > 0
}

// convertsTo returns the name of the type that the method fn, named
// With… (WithErrors, WithContext), returns when it is another named type
// of its receiver's package; "" otherwise.
func convertsTo(fn *ssa.Function) string {
	sig := fn.Signature
	if sig.Recv() == nil || sig.Results().Len() == 0 || !withName(fn.Name()) {
		return ""
	}
	res, recv := namedOf(sig.Results().At(0).Type()), namedOf(sig.Recv().Type())
	if res == nil || recv == nil || res.Obj().Pkg() != recv.Obj().Pkg() || res.Obj() == recv.Obj() {
		return ""
	}
	return res.Obj().Name()
}

// withName reports whether name is With followed by a word: WithErrors,
// not With or Without.
func withName(name string) bool {
	rest, ok := strings.CutPrefix(name, "With")
	return ok && rest != "" && unicode.IsUpper(rune(rest[0]))
}

// namedOf returns the named type of t or of what t points to, or nil.
func namedOf(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// writesLocked reports whether m writes some state of the type with a
// lock held.
func writesLocked(m *method) bool {
	for _, a := range m.accesses {
		if a.a.Write && !a.call && locked(a.a) {
			return true
		}
	}
	return false
}

// locked reports whether a lock is held at the access a, in one critical
// section with the accesses before it.
func locked(a summary.Access) bool {
	for _, h := range a.Held {
		if !h.Broken {
			return true
		}
	}
	return false
}

// soleUnsynchronisedWriter returns a location that m writes, taking no
// lock, when m is the only writer of every location it writes, with
// plain writes, and another method reads one of them without
// synchronisation; "" otherwise, and when another method's summary was
// cut at its size limit (it may have lost a write of them). The write
// that a call of unknown code stands for (summary.Indirect: a method
// called through an interface the field holds) makes no writer: it is
// what the callee may do to what the field refers to, and a method that
// only reads its configuration through such calls (a handler's
// Enabled, opts.Level.Level()) sets nothing up.
func soleUnsynchronisedWriter(m *method, all []*method) string {
	if len(m.m.Summary.Acquires) > 0 || slices.ContainsFunc(all, func(o *method) bool { return o.m.Summary.Truncated }) {
		return ""
	}
	var written []access
	for _, a := range m.accesses {
		if !a.a.Write || a.call || a.a.Flags&summary.Indirect != 0 {
			continue
		}
		if a.a.Flags.Synchronized() || locked(a.a) {
			return ""
		}
		written = append(written, a)
	}
	if len(written) == 0 {
		return ""
	}
	readUnsynced := ""
	for _, w := range written {
		for _, o := range all {
			if o == m {
				continue
			}
			for _, a := range o.accesses {
				if a.call || !lockstate.Compatible(w.loc, a.loc) {
					continue
				}
				if a.a.Write {
					return "" // another writer: the field is state, not configuration
				}
				if readUnsynced == "" && !a.a.Flags.Synchronized() && !locked(a.a) {
					readUnsynced = display(m, w.a.Loc)
				}
			}
		}
	}
	return readUnsynced
}

// funcDoc returns the doc comment of fn or, when it has none, those of
// the interface methods of its package it implements (see
// contract.PackageDocs); "" when its syntax is not at hand.
func funcDoc(fn *ssa.Function, docs contract.PackageDocs) string {
	if d, ok := fn.Syntax().(*ast.FuncDecl); ok && d.Doc != nil {
		return contract.DocText(d.Doc)
	}
	if m, ok := fn.Object().(*types.Func); ok {
		return docs.Of(m)
	}
	return ""
}
