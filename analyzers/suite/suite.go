// Package suite lists depcon's analyzers: the ones served by the vet tool
// (go vet -vettool, depcon vet) and by the golangci-lint plugin.
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/blockedlock"
	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/analyzers/lockleak"
	"github.com/depcon/depcon/analyzers/lockorder"
	"github.com/depcon/depcon/analyzers/rwrdeadlock"
	"github.com/depcon/depcon/analyzers/selfdeadlock"
	"github.com/depcon/depcon/analyzers/unguarded"
)

// Analyzers returns the diagnostic analyzers, plus deps, which reports
// nothing but exports the plans (its facts) for other tools.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		selfdeadlock.Analyzer,
		lockorder.Analyzer,
		rwrdeadlock.Analyzer,
		unguarded.Analyzer,
		lockleak.Analyzer,
		blockedlock.Analyzer,
		deps.Analyzer,
	}
}
