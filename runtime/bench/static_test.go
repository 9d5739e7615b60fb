package bench

import (
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/runtime/load"
)

// BenchmarkPlansCorpus times the static phase on the whole corpus: the
// analyzers run by load.Plans (summaries of the packages and of their
// dependencies, then the plans) on packages loaded once, outside the
// timer.
func BenchmarkPlansCorpus(b *testing.B) {
	subjects, err := LoadTruth(corpusDir)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkPlans(b, corpusDir, patterns(subjects))
}

// BenchmarkPlansStd times the static phase on some of the standard
// library's biggest packages, loaded once outside the timer; the analysis
// covers each package's dependencies too, as depcon's does.
func BenchmarkPlansStd(b *testing.B) {
	for _, pkg := range []string{"net/http", "go/types", "runtime"} {
		b.Run(pkg, func(b *testing.B) { benchmarkPlans(b, "", []string{pkg}) })
	}
}

func benchmarkPlans(b *testing.B, dir string, patterns []string) {
	pkgs, err := load.Packages(dir, patterns)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		plans, _, err := load.Plans(pkgs)
		if err != nil {
			b.Fatal(err)
		}
		if len(plans) != len(pkgs) {
			b.Fatalf("%d plans for %d packages", len(plans), len(pkgs))
		}
	}
	n := 0
	packages.Visit(pkgs, nil, func(*packages.Package) { n++ })
	b.ReportMetric(float64(n), "packages")
}

// BenchmarkSuiteStd times the whole suite, as go vet -vettool=depcon
// runs it (every diagnostic analyzer and deps, with the facts they
// need), on the same packages and their dependencies, and on go/printer,
// whose methods form one large recursion that calls its functions with
// constant bool arguments.
func BenchmarkSuiteStd(b *testing.B) {
	for _, pkg := range []string{"net/http", "go/types", "runtime", "go/printer"} {
		b.Run(pkg, func(b *testing.B) {
			pkgs, err := load.Packages("", []string{pkg})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := load.Analyze(pkgs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
