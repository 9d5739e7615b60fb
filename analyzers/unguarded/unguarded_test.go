package unguarded_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/internal/testdata"

	"github.com/depcon/depcon/analyzers/unguarded"
)

func Test(t *testing.T) {
	analysistest.Run(t, testdata.Dir(t), unguarded.Analyzer, "unguarded")
}
