// Package suite lists depcon's analyzers.
//
// They are the diagnostic ones, served by the vet tool (go vet -vettool,
// depcon vet), the golangci-lint plugin and nogo, and with them deps,
// whose plans depcon test and the language server read.
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

// Analyzers returns the diagnostic analyzers. deps is not one of them: it
// reports nothing, and no diagnostic analyzer reads its plans (unguarded
// reads the contract of a type, deps.Contract, without the pairs), so a
// vet run would only pay for them.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		selfdeadlock.Analyzer,
		lockorder.Analyzer,
		rwrdeadlock.Analyzer,
		unguarded.Analyzer,
		lockleak.Analyzer,
		blockedlock.Analyzer,
	}
}

// WithPlans returns the diagnostic analyzers and deps: one run gives the
// diagnostics and the plans of the packages (load.Analyze).
func WithPlans() []*analysis.Analyzer {
	return append(Analyzers(), deps.Analyzer)
}
