package deps

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
)

var Analyzer = &analysis.Analyzer{
	Name:       "deps",
	Doc:        "computes the dependent method pairs of each type under test (no diagnostics)",
	Run:        run,
	FactTypes:  []analysis.Fact{new(Plan)},
	ResultType: reflect.TypeFor[*Plan](),
}

func run(pass *analysis.Pass) (any, error) {
	plan := &Plan{Package: pass.Pkg.Path()}
	pass.ExportPackageFact(plan)
	return plan, nil
}
