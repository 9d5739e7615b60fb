package load

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// A Failed is a package that did not load.
type Failed struct {
	// Path is the package's import path (its ID, the pattern, when it
	// has none: a directory that does not exist).
	Path string
	// Err is its first error on one line, or, when the package itself
	// has none, the first error of a package it imports, directly or
	// not: "imports P, which does not load: ERR". Positions below the
	// directory the patterns are relative to are relative to it.
	Err string
}

// String returns "PATH: ERR".
func (f Failed) String() string { return f.Path + ": " + f.Err }

// Error returns "PATH: ERR": a Failed is an error, one line, that
// errors.Join joins with others.
func (f Failed) Error() string { return f.String() }

// Partial loads the packages matching patterns (relative to dir, "" for
// the current directory), as Packages does, but keeps going when some do
// not load: it returns the root packages that loaded with all their
// dependencies (good), and the roots that did not, each with its first
// error (failed, in the order of the roots; a package that imports one
// that does not load has not loaded either). The error is not nil when
// the packages could not be listed at all, when the patterns match no
// package, or when no package loaded (failed then says why, and the
// error only counts them): good is never empty when it is nil.
func Partial(dir string, patterns []string) (good []*packages.Package, failed []Failed, err error) {
	return partial(dir, patterns, false)
}

// PartialTests is Partial with the packages' test variants too (the
// package with its _test.go files, its external test package and the
// test's main package, as packages.Config.Tests loads them). A test
// variant's failure is reported under its package's import path (once
// per path), and the failure of a test's generated main package, which
// only repeats that of the variants it imports, is not reported.
func PartialTests(dir string, patterns []string) (good []*packages.Package, failed []Failed, err error) {
	return partial(dir, patterns, true)
}

func partial(dir string, patterns []string, tests bool) ([]*packages.Package, []Failed, error) {
	expanded, err := Expand(dir, patterns)
	if err != nil {
		return nil, nil, err
	}
	cfg := &packages.Config{Mode: Mode, Dir: dir, Tests: tests}
	pkgs, err := packages.Load(cfg, expanded...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	good, failed := split(pkgs, dir0(dir))
	if len(good) == 0 {
		if len(failed) == 1 {
			return nil, failed, fmt.Errorf("the package does not load")
		}
		return nil, failed, fmt.Errorf("none of the %d packages loads", len(failed))
	}
	return good, failed, nil
}

// split divides the root packages pkgs into those that loaded with all
// their dependencies and those that did not, each with its first error
// (see Failed; positions below dir are made relative to it).
func split(pkgs []*packages.Package, dir string) (good []*packages.Package, failed []Failed) {
	b := breakage{memo: map[*packages.Package]*cause{}}
	seen := map[string]bool{}
	for _, p := range pkgs {
		c := b.of(p)
		if c == nil {
			good = append(good, p)
			continue
		}
		if isTestMain(p) && c.pkg != p {
			continue // the failure of a variant it imports, reported under that variant's path
		}
		path := p.PkgPath
		if path == "" {
			path = p.ID
		}
		if seen[path] {
			continue // another variant of the package
		}
		seen[path] = true
		msg := oneLine(c.err, dir)
		if c.pkg != p {
			msg = fmt.Sprintf("imports %s, which does not load: %s", pathOf(c.pkg), msg)
		}
		failed = append(failed, Failed{Path: path, Err: msg})
	}
	return good, failed
}

// A cause is the first error of a package, or of a package it depends
// on.
type cause struct {
	pkg *packages.Package // the package that has the error
	err packages.Error
}

// breakage finds the causes of packages' failures, each package once.
type breakage struct {
	memo map[*packages.Package]*cause // nil: the package and its dependencies loaded
}

// of returns why p did not load, or nil when it and its dependencies
// did. The package's own errors come first, then its imports' in the
// order of their paths.
func (b *breakage) of(p *packages.Package) *cause {
	if c, ok := b.memo[p]; ok {
		return c
	}
	b.memo[p] = nil // an import cycle (an error of its own) ends here
	var c *cause
	if len(p.Errors) > 0 {
		c = &cause{p, p.Errors[0]}
	} else {
		paths := make([]string, 0, len(p.Imports))
		for path := range p.Imports {
			paths = append(paths, path)
		}
		slices.Sort(paths)
		for _, path := range paths {
			if c = b.of(p.Imports[path]); c != nil {
				break
			}
		}
	}
	b.memo[p] = c
	return c
}

// isTestMain reports whether p is the generated main package of a test.
func isTestMain(p *packages.Package) bool {
	return p.Name == "main" && strings.HasSuffix(p.PkgPath, ".test") && strings.HasSuffix(p.ID, ".test")
}

func pathOf(p *packages.Package) string {
	if p.PkgPath != "" {
		return p.PkgPath
	}
	return p.ID
}

// oneLine returns e as one line, its position relative to dir when it is
// below it.
func oneLine(e packages.Error, dir string) string {
	pos := e.Pos
	if pos != "" && filepath.IsAbs(pos) {
		if rel, err := filepath.Rel(dir, pos); err == nil && !strings.HasPrefix(rel, "..") {
			pos = rel
		}
	}
	msg := strings.Join(strings.Fields(e.Msg), " ")
	if pos == "" || pos == "-" {
		return msg
	}
	return pos + ": " + msg
}
