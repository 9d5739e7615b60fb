package selfdeadlock_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/selfdeadlock"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), selfdeadlock.Analyzer, "selfdeadlock", "selfdeadlock/callees", "selfdeadlock/indirect", "chanlockdl")
}
