package heldcalls

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

//go:embed doc.go
var doc string

// Analyzer finds the lock acquisitions by the targets of calls made with
// a lock held that the function summaries do not see (calls through
// function values and interfaces, recursive calls); its result is a
// *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "heldcalls",
	Doc:        analysisdoc.MustExtract(doc, "heldcalls"),
	URL:        "https://pkg.go.dev/github.com/depcon/depcon/analyzers/heldcalls",
	Requires:   []*analysis.Analyzer{summary.Analyzer},
	Run:        run,
	FactTypes:  []analysis.Fact{new(Fact)},
	ResultType: reflect.TypeFor[*Result](),
}

// maxTargets bounds the targets of a dynamic call that are followed;
// maxEntries the calls recorded per function; maxDepth the calls through
// which they are propagated.
const (
	maxTargets = 4
	maxEntries = 64
	maxDepth   = 6
)

type analyzer struct {
	pass  *analysis.Pass
	res   *summary.Result
	infos map[*ssa.Function]*funcInfo
	busy  map[*ssa.Function]bool
	cg    *callgraph.Graph
	cgOK  bool
	// follow is set when the targets of calls through function values
	// and interfaces are followed (see run).
	follow   bool
	deepMemo map[*ssa.Function][]summary.Acquire
	// closures indexes the closures and bound method values of the
	// package by function.
	closures map[*ssa.Function][]*ssa.MakeClosure
	// fieldStores indexes the package's stores into fields by the
	// field's class (see stores).
	fieldStores map[string][]*ssa.Store
}

type funcInfo struct {
	fn      *ssa.Function
	acqs    []mustAcq // the lock acquisitions and static calls, in order
	r       *lockstate.Namer
	entries []*entry
	calls   []staticCall
	eff     []*entry
	done    bool
	mustSet []Lock
	mustOK  bool
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	a := &analyzer{pass: pass, res: res, infos: map[*ssa.Function]*funcInfo{}, busy: map[*ssa.Function]bool{}}
	// The calls of unknown code are followed into their targets only in
	// a package that holds a lock at such a call, where the call graph is
	// computed anyway.
	for _, fn := range res.SSA.SrcFuncs {
		for _, e := range a.info(fn).entries {
			if len(e.held) > 0 && e.anon == nil {
				a.follow = true
			}
		}
	}
	out := &Result{}
	for _, fn := range res.SSA.SrcFuncs {
		fi := a.info(fn)
		evs, err := a.safeEvents(fi)
		if err != "" {
			out.Failures = append(out.Failures, fn.String()+": "+err)
		}
		out.Events = append(out.Events, evs...)
		if obj, ok := fn.Object().(*types.Func); ok && obj.Exported() && fn.Parent() == nil {
			if f := a.fact(fi); f != nil {
				pass.ExportObjectFact(obj, f)
			}
		}
	}
	return out, nil
}

// safeEvents returns the events of fi; a construct the analysis does not
// handle costs that function's events, not the package's vet run, and
// is returned as the failure.
func (a *analyzer) safeEvents(fi *funcInfo) (evs []Event, failure string) {
	defer func() {
		if r := recover(); r != nil {
			evs, failure = nil, fmt.Sprint(r)
		}
	}()
	return a.events(fi), ""
}

// info walks fn once.
func (a *analyzer) info(fn *ssa.Function) *funcInfo {
	if fn.Blocks == nil && fn.Origin() != nil {
		fn = fn.Origin()
	}
	if fi, ok := a.infos[fn]; ok {
		return fi
	}
	fi := &funcInfo{fn: fn, r: lockstate.NewNamer(fn)}
	a.infos[fn] = fi
	if fn.Blocks != nil {
		(&walker{a: a, fi: fi}).run()
	}
	return fi
}

func (a *analyzer) sum(fn *ssa.Function) *summary.Summary {
	if s := a.res.Of(fn); s != nil {
		return s
	}
	if o := fn.Origin(); o != nil {
		return a.res.Of(o)
	}
	return nil
}

func (a *analyzer) here(fn *ssa.Function) bool {
	if fn.Blocks == nil && fn.Origin() != nil {
		fn = fn.Origin()
	}
	return fn.Blocks != nil && (fn.Pkg == nil || fn.Pkg.Pkg == a.pass.Pkg)
}

func (a *analyzer) local(pos token.Pos) bool {
	if !pos.IsValid() {
		return false
	}
	f := a.pass.Fset.File(pos)
	for _, af := range a.pass.Files {
		if a.pass.Fset.File(af.Pos()) == f {
			return true
		}
	}
	return false
}

// callPos returns the position of a call: its own, or fn's. (The
// summaries' lockstate.InstrPos tries the call's operands before fn.)
func callPos(instr ssa.Instruction, fn *ssa.Function) token.Pos {
	if p := instr.Pos(); p.IsValid() {
		return p
	}
	return fn.Pos()
}

func isParam(p lockstate.Path) bool {
	return !p.Loaded && len(p.Str) > 1 && p.Str[0] == '$' && p.Str[1] != 'f' && lockstate.Root(p.Str) == p.Str
}
