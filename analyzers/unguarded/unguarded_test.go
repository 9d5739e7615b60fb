package unguarded_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/unguarded"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unguarded.Analyzer, "unguarded", "unguarded/wrapper", "unguardedtrunc", "chanlock")
}
