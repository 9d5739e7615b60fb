package summary

import (
	_ "embed"
	"go/token"
	"go/types"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

//go:embed doc.go
var doc string

// Analyzer computes the summaries of a package's functions and exports
// those of its exported functions and methods as a Fact; its result is
// the package's *Result. It reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "summary",
	Doc:        analysisdoc.MustExtract(doc, "summary"),
	URL:        "https://pkg.go.dev/github.com/depcon/depcon/analyzers/summary",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
	Run:        run,
	FactTypes:  []analysis.Fact{new(Fact)},
	ResultType: reflect.TypeFor[*Result](),
}

// Result is the summary analyzer's result for a package.
type Result struct {
	SSA   *buildssa.SSA
	Funcs map[*ssa.Function]*Summary // every function analysed, wrappers included
	Types []*Type                    // named types with methods, sorted by name
	// CallHeld lists the locks that must be held just before each call
	// of the package's functions (where any is): the function's own and
	// those its callees hold on return, as the summaries compute them,
	// and also the locks that have no access path (IsUnnamed: a field
	// of the result of a call), which the summaries leave out.
	CallHeld map[*ssa.Call][]Held
	// CallOps lists what each call of the package's functions does to
	// the locks of its function (where it does anything): the locks it
	// acquires, itself (a Lock call) or in its callee (held on return or
	// released inside), and those it releases; a goroutine's are not
	// the call's.
	CallOps map[*ssa.Call]*LockOps
	// ChanLocks holds the classes of the package's channel fields used as
	// mutexes (see lockstate.FindChanLocks), whose sends the summaries
	// take as Lock and receives as Unlock.
	ChanLocks map[string]bool
}

// LockOps are the locks a call acquires and releases, by their names in
// the summary of the function that makes it.
type LockOps struct {
	Acquires, Releases []string
}

// Acquires reports whether call acquires lock.
func (r *Result) Acquires(call *ssa.Call, lock string) bool {
	ops := r.CallOps[call]
	return ops != nil && slices.Contains(ops.Acquires, lock)
}

// Releases reports whether call releases lock.
func (r *Result) Releases(call *ssa.Call, lock string) bool {
	ops := r.CallOps[call]
	return ops != nil && slices.Contains(ops.Releases, lock)
}

// HeldAt returns the locks held just before call, sorted by Lock.
func (r *Result) HeldAt(call *ssa.Call) []Held { return r.CallHeld[call] }

// A Type is a named type declared in the package, with the summaries of
// the methods of *T (promoted ones included).
type Type struct {
	Obj     *types.TypeName
	Methods []*Method // the exported methods, sorted by name
	// Unexported are the unexported methods declared in the package
	// (promoted ones included), sorted by name, unless the type has more
	// than MaxMethods methods in all: then they are left out, and
	// Omitted counts them.
	Unexported []*Method
	Omitted    int
	Doc        string // the type's doc comment
	// PkgDoc is what the package's doc comment says, when the syntax
	// is at hand, read once for all its types: what it says of them ("a
	// thread-safe cache") is their contract too.
	PkgDoc contract.DocPhrases
}

// A Method is a method of a type and its summary.
type Method struct {
	Name     string
	Exported bool
	Func     *ssa.Function // the method, or the wrapper of a promoted one
	Summary  *Summary
	Params   []string // the names of $0, $1, … for messages (ParamNames)
	// CallsOut is set when the method takes a lock and calls a function
	// its caller gives it with no lock held: it is not one atomic step
	// (see builder.callsOut).
	CallsOut bool
}

// Of returns the summary of fn, or nil when it has no shared effects known.
func (r *Result) Of(fn *ssa.Function) *Summary { return r.Funcs[fn] }

func run(pass *analysis.Pass) (any, error) {
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	files := map[*token.File]bool{}
	for _, f := range pass.Files {
		files[pass.Fset.File(f.Pos())] = true
	}
	b := &builder{
		fset:     pass.Fset,
		local:    func(pos token.Pos) bool { return pos.IsValid() && files[pass.Fset.File(pos)] },
		here:     func(fn *ssa.Function) bool { return fn.Pkg == nil || fn.Pkg.Pkg == pass.Pkg },
		fact:     importedFacts(pass),
		sums:     map[*ssa.Function]*Summary{},
		callHeld: map[*ssa.Call][]Held{},
		callOps:  map[*ssa.Call]*LockOps{},
		sendHeld: map[*ssa.Send][]Held{},
	}
	docs := contract.TypeDocs(pass.Files)
	b.doc = func(tn *types.TypeName) string { return docs[tn.Pos()] }
	b.chanLocks = lockstate.FindChanLocks(ssainfo.SrcFuncs)
	for _, fn := range ssainfo.SrcFuncs {
		b.summary(fn)
	}
	// The functions that receive from a handoff channel, again: their
	// accesses until the signal hold the sender's lock.
	if b.handoffs = b.findHandoffs(ssainfo.SrcFuncs); b.handoffs != nil {
		b.specs.Reset()
		b.roundSpecs = nil
		for _, fn := range ssainfo.SrcFuncs {
			if b.receivesHandoff(fn) {
				delete(b.sums, fn)
				b.summary(fn)
			}
		}
	}
	fact := &Fact{Funcs: map[string]*Summary{}}
	for _, fn := range ssainfo.SrcFuncs {
		sum := b.sums[fn]
		if obj, ok := fn.Object().(*types.Func); ok && obj.Exported() && sum != nil && fn.Parent() == nil {
			if f := exportFact(sum); !f.Empty() {
				fact.Funcs[FactName(obj)] = f
			}
		}
	}
	if len(fact.Funcs) > 0 {
		pass.ExportPackageFact(fact)
	}
	ts := b.types(ssainfo.Pkg)
	if doc := contract.PackageDoc(pass.Files); doc != "" {
		read := contract.ReadDoc(doc)
		for _, t := range ts {
			t.PkgDoc = read
		}
	}
	return &Result{SSA: ssainfo, Funcs: b.sums, Types: ts, CallHeld: b.callHeld,
		CallOps: b.callOps, ChanLocks: b.chanLocks}, nil
}

// fromSync reports whether a method is declared in sync or sync/atomic:
// Lock and Unlock promoted from an embedded sync.Mutex are not part of the
// API under test.
func fromSync(m types.Object) bool {
	if m.Pkg() == nil {
		return false // error.Error
	}
	switch m.Pkg().Path() {
	case "sync", "sync/atomic":
		return true
	}
	return false
}

// builder computes and memoizes the summaries of functions. The same
// builder serves an analysis pass (one package, callees of other packages
// through facts) and a whole program (every body at hand, dynamic calls
// resolved by a call graph).
type builder struct {
	fset  *token.FileSet
	local func(token.Pos) bool       // whether a position may be reported
	here  func(*ssa.Function) bool   // whether fn's body is analysed
	fact  func(*types.Func) *Summary // the summary of a function analysed elsewhere
	// dynamic resolves a call through an interface or a function value
	// to its possible callees; nil, or no callee, means unknown code.
	dynamic func(instr ssa.CallInstruction) []*ssa.Function
	doc     func(*types.TypeName) string // a type's doc comment
	sums    map[*ssa.Function]*Summary
	rec     recursion
	// callHeld, when not nil, receives the locks held at each call
	// (Result.CallHeld).
	callHeld map[*ssa.Call][]Held
	// callOps, when not nil, receives the locks each call acquires and
	// releases (Result.CallOps).
	callOps map[*ssa.Call]*LockOps
	// sendHeld, when not nil, receives the locks held at each channel
	// send where any is, and handoffs are the handoff channels found
	// from them (see handoff.go).
	sendHeld map[*ssa.Send][]Held
	handoffs map[string]*handoff
	// chanLocks are the classes of the channel fields used as mutexes
	// (see lockstate.FindChanLocks).
	chanLocks map[string]bool
	// specs are the summaries of functions specialised for constant
	// bool arguments (see specialized).
	specs lockstate.Specs[*Summary]
	// roundSpecs are the specialised summaries that are not final
	// (see specialized).
	roundSpecs map[specKey]roundSpec
	// decides memoises deciding.
	decides map[*ssa.Function][]bool
}

// summary returns the summary of fn: computed from its body when the
// builder analyses it, imported when it is analysed elsewhere, nil when
// nothing is known (a function without a body, or one with no shared
// effects). The summaries of recursive functions are computed to a fixed
// point over their strongly connected component (see recursion).
func (b *builder) summary(fn *ssa.Function) *Summary {
	if fn.Blocks == nil && fn.Origin() != nil {
		fn = fn.Origin()
	}
	if s, ok := b.sums[fn]; ok {
		return s
	}
	if fn.Blocks == nil || !b.here(fn) {
		var s *Summary
		if obj, ok := fn.Object().(*types.Func); ok && b.fact != nil {
			s = b.fact(obj)
		}
		b.sums[fn] = s
		return s
	}
	if s, ok := b.rec.inProgress(fn); ok {
		return s
	}
	return b.rec.solve(fn, func() *Summary {
		return b.walk(fn, lockstate.Consts{})
	}, func(s *Summary) { b.sums[fn] = s })
}

// walk computes the summary of fn from its body, specialised for the
// constant arguments k (zero: none).
func (b *builder) walk(fn *ssa.Function, k lockstate.Consts) *Summary {
	s := new(Summary)
	w := &walker{b: b, fn: fn, r: lockstate.NewNamer(fn), sum: s, sites: map[siteKey]int32{}, consts: k}
	if p := fn.Pkg; p != nil {
		w.pkg = p.Pkg.Path()
	} else if o := fn.Origin(); o != nil && o.Pkg != nil {
		w.pkg = o.Pkg.Pkg.Path()
	}
	w.run()
	return s
}

// importedFacts returns the builder's source of the summaries of
// functions analysed in other packages: the summary facts of the
// packages pass imports, each decoded once.
func importedFacts(pass *analysis.Pass) func(*types.Func) *Summary {
	facts := map[*types.Package]*Fact{}
	return func(obj *types.Func) *Summary {
		pkg := obj.Pkg()
		if pkg == nil || pkg == pass.Pkg {
			return nil
		}
		f, ok := facts[pkg]
		if !ok {
			f = new(Fact)
			if !pass.ImportPackageFact(pkg, f) {
				f = nil
			}
			facts[pkg] = f
		}
		if f == nil || f.Funcs[FactName(obj)] == nil {
			return nil
		}
		s := *f.Funcs[FactName(obj)]
		stripPos(&s)
		return &s
	}
}

// stripPos clears the positions of a summary imported from another
// package (only its Where strings are meaningful here). It copies what it
// changes: an imported fact shares its slices with the fact store, which
// other packages' passes read concurrently.
func stripPos(s *Summary) {
	s.Accesses = slices.Clone(s.Accesses)
	for i := range s.Accesses {
		s.Accesses[i].Held = slices.Clone(s.Accesses[i].Held)
	}
	s.Acquires = slices.Clone(s.Acquires)
	for i := range s.Acquires {
		s.Acquires[i].Held = slices.Clone(s.Acquires[i].Held)
	}
	s.Exit = slices.Clone(s.Exit)
	for i := range s.Accesses {
		s.Accesses[i].Pos = token.NoPos
		for j := range s.Accesses[i].Held {
			s.Accesses[i].Held[j].Pos = token.NoPos
		}
	}
	for i := range s.Acquires {
		s.Acquires[i].Pos = token.NoPos
		for j := range s.Acquires[i].Held {
			s.Acquires[i].Held[j].Pos = token.NoPos
		}
	}
	for i := range s.Exit {
		s.Exit[i].Pos = token.NoPos
	}
}

// exportFact returns the summary the package's fact holds for a function
// with summary s: what a caller in another package uses of it. The
// package variables it accesses are another package's state to every
// importer (Foreign), and a caller gives the accesses and acquisitions of
// a callee the position of its own call, so theirs are left out: every
// importer decodes the fact, so it is kept small.
func exportFact(s *Summary) *Summary {
	f := &Summary{Exit: s.Exit, Released: s.Released, Truncated: s.Truncated, Foreign: s.Foreign, FuncCalls: s.FuncCalls}
	for _, a := range s.Accesses {
		if a.Loc != "" && a.Loc[0] == '@' {
			f.Foreign = true
			continue
		}
		a.Pos, a.Where = token.NoPos, ""
		a.Held = stripHeld(a.Held)
		f.Accesses = append(f.Accesses, a)
	}
	for _, a := range s.Acquires {
		a.Pos, a.Where = token.NoPos, ""
		a.Held = stripHeld(a.Held)
		f.Acquires = append(f.Acquires, a)
	}
	f.Exit = stripHeld(f.Exit)
	return f
}

func stripHeld(hs []Held) []Held {
	if len(hs) == 0 {
		return nil
	}
	out := make([]Held, len(hs))
	for i, h := range hs {
		// The acquisition's position in this package means nothing
		// to a caller elsewhere, which gives the lock the position of
		// its own call (see apply); it is most of a fact's size.
		h.Pos, h.Where = token.NoPos, ""
		out[i] = h
	}
	return out
}

func (b *builder) where(pos token.Pos) string {
	if !b.local(pos) {
		return ""
	}
	return b.fset.Position(pos).String()
}
