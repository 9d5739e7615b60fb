package selfdeadlock_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"

	"github.com/depcon/depcon/analyzers/selfdeadlock"
)

func Test(t *testing.T) {
	analysistest.Run(t, testpkgs.Dir(t), selfdeadlock.Analyzer, "selfdeadlock", "selfdeadlock2", "selfdeadlock3", "chanlockdl")
}
