package rwrdeadlock_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/rwrdeadlock"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), rwrdeadlock.Analyzer, "rwrdeadlock", "rwrdeadlock/crosspkg", "rwrdeadlock/deferred", "rwrdeadlock/chains")
}
