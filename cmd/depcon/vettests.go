package main

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"
)

// testFilesUnusable reports whether the test files of the packages
// patterns name import packages whose modules are missing from go.sum (a
// dependency vetted from a module that requires it, whose tests need
// modules the user's module does not): depcon vet then vets the packages
// without their test files, and stderr says so. It is not asked when the
// command line sets -test.
func testFilesUnusable(patterns []string, stderr io.Writer) bool {
	if len(patterns) == 0 {
		return false
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports, Tests: true}, patterns...)
	if err != nil {
		return false
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
		return false
	}
	fmt.Fprintf(stderr, "depcon vet: the test files of %s import packages whose modules are missing from go.sum: "+
		"vetting without test files (-test=false; go get -t adds what they need)\n", strings.Join(missing, ", "))
	return true
}

// flagSet reports whether the flag name was set on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// importedBy finds the importer in the go command's "missing go.sum
// entry for module providing package P (imported by Q)".
var importedBy = regexp.MustCompile(`\(imported by ([^)\s]+)\)`)
