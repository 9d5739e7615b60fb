// Package analysisdoc extracts an Analyzer's Doc from its package comment.
//
// An analyzer package documents itself once, in the package comment of
// its doc.go, with a section for the analyzer:
//
//	// Package halting defines an Analyzer that reports loops that never end.
//	//
//	// # Analyzer halting
//	//
//	// halting: report loops that never end
//	//
//	// The halting analyzer reports a for loop with no condition, no
//	// break and no return.
//	package halting
//
// and embeds that file to derive the Analyzer's Doc from it:
//
//	//go:embed doc.go
//	var doc string
//
//	var Analyzer = &analysis.Analyzer{
//		Name: "halting",
//		Doc:  analysisdoc.MustExtract(doc, "halting"),
//		...
//	}
//
// This is the convention of golang.org/x/tools/go/analysis/passes, whose
// helper is internal to that module.
package analysisdoc

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// MustExtract is like [Extract] but panics on error.
func MustExtract(content, name string) string {
	doc, err := Extract(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}

// Extract returns the section of the package comment in content, the
// text of a Go source file, that documents the analyzer name. The
// section runs from a heading
//
//	# Analyzer NAME
//
// to the next heading or the end of the comment, and starts with a line
//
//	NAME: SUMMARY
//
// where SUMMARY is a short verb phrase. Extract returns the section from
// SUMMARY on, the form Analyzer.Doc expects: its first line is the
// summary, and the rest, after a blank line, the full description.
//
// It returns an error if content is not a Go source file with a package
// comment holding such a section.
func Extract(content, name string) (string, error) {
	if content == "" {
		return "", fmt.Errorf("empty Go source file")
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("not a Go source file: %w", err)
	}
	if f.Doc == nil {
		return "", errors.New("the Go source file has no package comment")
	}
	for section := range strings.SplitSeq(f.Doc.Text(), "\n# ") {
		body, ok := strings.CutPrefix(section, "Analyzer "+name)
		if !ok || body == "" || body[0] != '\n' && body[0] != '\r' {
			continue
		}
		body = strings.TrimSpace(body)
		rest, ok := strings.CutPrefix(body, name+":")
		if !ok {
			return "", fmt.Errorf("heading 'Analyzer %s' is not followed by a line '%s: summary'", name, name)
		}
		return strings.TrimSpace(rest), nil
	}
	return "", fmt.Errorf("package comment has no heading 'Analyzer %s'", name)
}
