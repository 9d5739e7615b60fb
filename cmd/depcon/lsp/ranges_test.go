package lsp

import (
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/runtime/load"
)

// rng is a range of 0-based lines and UTF-16 characters.
func rng(l1, c1, l2, c2 uint32) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}

// TestDiagnosticRanges checks that the diagnostics of the analyzers,
// which have a position and no end, cover the call or the expression
// they name: the lock order inversion of testdata/ranges the whole call
// t.a.Lock() (it is reported at its "("), the unguarded read the
// selector t.n (reported at n), and so their related positions.
func TestDiagnosticRanges(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "ranges"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := analyze(dir)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		rng     protocol.Range
		related []protocol.Range
	}
	wants := map[string]want{
		// BA's t.a.Lock() (ranges.go:26); related: AB's t.b.Lock().
		"lockorder": {rng(25, 1, 25, 11), []protocol.Range{rng(16, 1, 16, 11)}},
		// Count's t.n (ranges.go:33); related: AB's t.n++.
		"unguarded": {rng(32, 8, 32, 11), []protocol.Range{rng(17, 1, 17, 4)}},
	}
	seen := map[string]bool{}
	for _, sd := range a.static {
		code, _ := sd.diag.Code.(string)
		w, ok := wants[code]
		if !ok {
			t.Errorf("unexpected diagnostic %s: %s", code, sd.diag.Message)
			continue
		}
		seen[code] = true
		if sd.diag.Range != w.rng {
			t.Errorf("%s: range %+v, want %+v (analyzer's position %v, end %v)", code, sd.diag.Range, w.rng, sd.src.Pos, sd.src.End)
		}
		var related []protocol.Range
		for _, r := range sd.diag.RelatedInformation {
			related = append(related, r.Location.Range)
		}
		if len(related) != len(w.related) || len(related) > 0 && related[0] != w.related[0] {
			t.Errorf("%s: related ranges %+v, want %+v", code, related, w.related)
		}
	}
	for code := range wants {
		if !seen[code] {
			t.Errorf("no %s diagnostic", code)
		}
	}
}

// TestSyntaxSpan checks which node a position names: a call at its
// start, its "(" or its method's name; a selector at its name; a chain
// of selectors at its start; nothing inside a comment.
func TestSyntaxSpan(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "ranges"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := load.Packages(dir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata/ranges does not load")
	}
	pkg := pkgs[0]
	x := newSyntaxIndex(pkg.Fset, pkg.Syntax)
	file := pkg.GoFiles[0]
	// Line 26 is "\tt.a.Lock()", 33 "\treturn t.n", 18 "\tt.n++".
	for _, tc := range []struct {
		line, col int
		want      string // line:col-line:col, or "" for none
	}{
		{26, 2, "26:2-26:12"},  // t: the call
		{26, 6, "26:2-26:12"},  // Lock: the call
		{26, 10, "26:2-26:12"}, // (: the call
		{33, 11, "33:9-33:12"}, // n: t.n
		{33, 9, "33:9-33:12"},  // t: t.n
		{18, 2, "18:2-18:5"},   // t of t.n++: t.n
		{31, 5, ""},            // in a comment
		{33, 2, ""},            // return
	} {
		start, end, ok := x.span(token.Position{Filename: file, Line: tc.line, Column: tc.col})
		got := ""
		if ok {
			got = strings.Join([]string{pos(start), pos(end)}, "-")
		}
		if got != tc.want {
			t.Errorf("span at %d:%d = %q, want %q", tc.line, tc.col, got, tc.want)
		}
	}
	if _, _, ok := x.span(token.Position{Filename: filepath.Join(dir, "other.go"), Line: 1, Column: 1}); ok {
		t.Errorf("a span in a file not of the package")
	}
}

func pos(p token.Position) string {
	return strings.TrimPrefix(p.String(), p.Filename+":")
}
