package unguarded_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"

	"github.com/depcon/depcon/analyzers/unguarded"
)

func Test(t *testing.T) {
	analysistest.Run(t, testpkgs.Dir(t), unguarded.Analyzer, "unguarded", "unguarded2", "unguardedtrunc", "chanlock")
}
