package heldcalls_test

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"
	"github.com/depcon/depcon/analyzers/lockorder/heldcalls"
)

var dump = &analysis.Analyzer{
	Name:     "dump",
	Doc:      "dump",
	Requires: []*analysis.Analyzer{heldcalls.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, e := range pass.ResultOf[heldcalls.Analyzer].(*heldcalls.Result).Events {
			fmt.Printf("%s %v held %s acq %s %s via %s rec %v\n", e.Fn, pass.Fset.Position(e.Pos), e.Held.Lock, e.Acq.Lock, e.Acq.Class, e.Acq.Via, e.Recursive)
		}
		return nil, nil
	},
}

func TestDump(t *testing.T) {
	pkg := os.Getenv("DUMP")
	if pkg == "" {
		t.Skip()
	}
	analysistest.Run(t, testpkgs.Dir(t), dump, pkg)
}
