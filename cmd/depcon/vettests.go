package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"
)

// vetArgs returns the arguments of depcon vet, with -test=false added
// when the packages' test files import packages whose modules are missing
// from go.sum (a dependency vetted from a module that requires it, whose
// tests need modules the user's module does not): the packages are then
// vetted without their test files, and stderr says so. Arguments that
// set -test themselves are left alone.
func vetArgs(args []string, stderr io.Writer) []string {
	var patterns []string
	for _, a := range args {
		switch {
		case a == "-test" || strings.HasPrefix(a, "-test=") || a == "--test" || strings.HasPrefix(a, "--test="):
			return args
		case !strings.HasPrefix(a, "-"):
			patterns = append(patterns, a)
		}
	}
	if len(patterns) == 0 {
		return args
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports, Tests: true}, patterns...)
	if err != nil {
		return args
	}
	var missing []string
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if !strings.Contains(e.Msg, "missing go.sum entry") || !strings.Contains(e.Pos, "_test.go") {
				continue
			}
			importer := p.PkgPath
			if m := importedBy.FindStringSubmatch(e.Msg); m != nil {
				importer = m[1]
			}
			if !seen[importer] {
				seen[importer] = true
				missing = append(missing, importer)
			}
		}
	})
	if len(missing) == 0 {
		return args
	}
	fmt.Fprintf(stderr, "depcon vet: the test files of %s import packages whose modules are missing from go.sum: "+
		"vetting without test files (-test=false; go get -t adds what they need)\n", strings.Join(missing, ", "))
	return append([]string{"-test=false"}, args...)
}

// importedBy finds the importer in the go command's "missing go.sum
// entry for module providing package P (imported by Q)".
var importedBy = regexp.MustCompile(`\(imported by ([^)\s]+)\)`)
