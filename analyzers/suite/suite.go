// Package suite lists depcon's analyzers: the ones served by the vet tool
// (depcon vet, go vet -vettool) and by the golangci-lint plugin.
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/deps"
)

// Analyzers returns the analyzers that report diagnostics, plus deps, whose
// facts other tools read.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		deps.Analyzer,
	}
}
