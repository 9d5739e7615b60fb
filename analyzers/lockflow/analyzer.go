package lockflow

import (
	_ "embed"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

//go:embed doc.go
var doc string

// Analyzer computes the lock flows of a package's functions; its result
// is the *Program that holds them. It reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "lockflow",
	Doc:        analysisdoc.MustExtract(doc, "lockflow"),
	URL:        "https://pkg.go.dev/github.com/depcon/depcon/analyzers/lockflow",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer, ctrlflow.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Program](),
}

func run(pass *analysis.Pass) (any, error) {
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	prog := NewProgram(ssainfo.Pkg, pass.Files, func(fn *ssa.Function) bool {
		obj, ok := fn.Object().(*types.Func)
		return ok && cfgs.NoReturn(obj)
	})
	prog.chanLocks = lockstate.FindChanLocks(ssainfo.SrcFuncs)
	// The flows of the source functions are computed here, in source
	// order, so that a recursive cycle is cut at the same function
	// whichever analyzer asks first.
	for _, fn := range ssainfo.SrcFuncs {
		if fn.Synthetic == "" {
			prog.Flow(fn)
		}
	}
	return prog, nil
}
