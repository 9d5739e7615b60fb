package suite

import "golang.org/x/tools/go/analysis"

// FactsOnly returns the analyzers to run on a package analysed only for
// its facts: under go vet, a dependency of the packages vetted (a
// VetxOnly unit), whose diagnostics nobody sees. An analyzer that exports
// facts is kept. Any other is replaced by a stand-in with its name,
// documentation and flags (go vet passes the same flags to every unit),
// which does nothing but require the analyzers of its own prerequisites
// that export facts: the facts exported are those of the full run, and
// the diagnostics are not computed.
//
// unitchecker runs, on such a unit, every analyzer that exports facts or
// requires one that does, so without this every diagnostic analyzer of
// the suite would run on every dependency.
func FactsOnly(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		if len(a.FactTypes) > 0 {
			out[i] = a
			continue
		}
		out[i] = &analysis.Analyzer{
			Name:     a.Name,
			Doc:      a.Doc,
			URL:      a.URL,
			Flags:    a.Flags,
			Requires: exporters(a.Requires),
			Run:      func(*analysis.Pass) (any, error) { return nil, nil },
		}
	}
	return out
}

// exporters returns the analyzers among as and their prerequisites that
// export facts, the nearest ones: an exporter's own prerequisites run
// with it.
func exporters(as []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			out = append(out, a)
			return
		}
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range as {
		visit(a)
	}
	return out
}
