package lsp

import (
	"context"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/analyzers/selfdeadlock"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/stacks"
)

func TestPositions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.go")
	if err := os.WriteFile(file, []byte("package a\n\nvar s = \"héllo, 世界\" + name\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newMapper()
	// "name" starts at byte column 28 (é is 2 bytes, 世 and 界 3 each):
	// UTF-16 column 22 (0-based).
	r := m.rangeOf(token.Position{Filename: file, Line: 3, Column: 28}, token.Position{})
	if r.Start.Line != 2 || r.Start.Character != 22 || r.End.Character != 26 {
		t.Errorf("range of name: %+v", r)
	}
	// Not on a word: one character.
	r = m.rangeOf(token.Position{Filename: file, Line: 3, Column: 7}, token.Position{})
	if r.Start.Character != 6 || r.End.Character != 7 {
		t.Errorf("range of '=': %+v", r)
	}
	// A missing file keeps the byte column.
	if p := m.position(token.Position{Filename: file + "x", Line: 2, Column: 5}); p.Line != 1 || p.Character != 4 {
		t.Errorf("position in a missing file: %+v", p)
	}
}

func TestAnalyzerPackage(t *testing.T) {
	if got := analyzerPackage(selfdeadlock.Analyzer.Name); got != "github.com/depcon/depcon/analyzers/selfdeadlock" {
		t.Errorf("analyzerPackage(selfdeadlock) = %q", got)
	}
}

func TestProgressWriter(t *testing.T) {
	var got []string
	w := &progressWriter{report: func(s string) { got = append(got, s) }}
	_, _ = w.Write([]byte("\r\033[KCounter: 0/1 pairs covered, 3 tests, 4s left"))
	_, _ = w.Write([]byte("\r\033[KCounter: 1/1 pairs covered, 9 tests, 3s left")) // within 250ms: dropped
	_, _ = w.Write([]byte("\r\033[K"))
	if len(got) != 1 || got[0] != "Counter: 0/1 pairs covered, 3 tests, 4s left" {
		t.Errorf("reports: %q", got)
	}
}

// TestConfirmation publishes a package's state: a static diagnostic is
// confirmed by a violation of its type and pair whose reproducer failed
// or did not run, and keeps its wording when the reproducer passed or
// the violation is of another pair.
func TestConfirmation(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.go")
	u := fileURI(file)
	at23 := stacks.ParseRace("Read at 0x00c0 by goroutine 9:\n  m.(*Counter).Get()\n      " + file + ":23 +0x44\n")
	at24 := stacks.ParseRace("Read at 0x00c0 by goroutine 9:\n  m.(*Counter).Get()\n      " + file + ":24 +0x44\n")
	static := func() *staticDiag {
		return &staticDiag{uri: u, diag: protocol.Diagnostic{Message: "recv.n is read in Get without recv.mu", Code: "unguarded"},
			src: &load.Diagnostic{Type: "Counter", Methods: []string{"Get", "Inc"}, Pos: token.Position{Filename: file, Line: 23}}}
	}
	for _, tc := range []struct {
		name      string
		v         report.Violation
		typ       string
		confirmed bool
	}{
		{"reproduced", report.Violation{Kind: "race", Pair: [2]string{"Get", "Inc"}, Seed: 1, Reproduced: report.ReproYes, Stacks: at23}, "Counter", true},
		{"not run", report.Violation{Kind: "race", Pair: [2]string{"Inc", "Get"}, Seed: 1, Reproduced: report.ReproNotRun, Stacks: at23}, "Counter", true},
		{"passed", report.Violation{Kind: "race", Pair: [2]string{"Get", "Inc"}, Seed: 1, Reproduced: report.ReproNo, Stacks: at23}, "Counter", false},
		{"other lines", report.Violation{Kind: "race", Pair: [2]string{"Get", "Inc"}, Seed: 1, Reproduced: report.ReproYes, Stacks: at24}, "Counter", false},
		{"other pair", report.Violation{Kind: "race", Pair: [2]string{"Inc", "Reset"}, Seed: 1, Reproduced: report.ReproYes, Stacks: at23}, "Counter", false},
		{"other type", report.Violation{Kind: "race", Pair: [2]string{"Get", "Inc"}, Seed: 1, Reproduced: report.ReproYes, Stacks: at23}, "Gauge", false},
		{"evidence on its line", report.Violation{Kind: "race", Pair: [2]string{"Inc", "Reset"}, Seed: 1, Reproduced: report.ReproYes,
			Evidence: []deps.Evidence{{Pos1: file + ":23:11"}}, Stacks: at23}, "Counter", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			s := newServer(context.Background(), Options{})
			s.client = rec
			v := tc.v
			p := &pkgState{dir: filepath.Dir(file), result: &pkgResult{files: []string{file}, static: []*staticDiag{static()}},
				tests: map[string]*typeTest{tc.typ: {violations: []*violationRec{{id: "v1", typ: tc.typ, v: &v, uri: u,
					diag: protocol.Diagnostic{Message: "depcon test: race", Code: "race"}}}}},
				published: map[protocol.DocumentURI]bool{}}
			s.publish(p)
			if len(rec.diags) != 1 || rec.diags[0].URI != u || len(rec.diags[0].Diagnostics) != 2 {
				t.Fatalf("published %+v", rec.diags)
			}
			msg := rec.diags[0].Diagnostics[0].Message
			if got := strings.Contains(msg, confirmedSuffix); got != tc.confirmed {
				t.Errorf("confirmed = %v, want %v: %s", got, tc.confirmed, msg)
			}
			if !strings.HasPrefix(msg, "recv.n is read in Get without recv.mu") {
				t.Errorf("message %q", msg)
			}
		})
	}
}

// TestCodeActions checks that a violation's code action is found from
// the diagnostic's data, and from the range for clients that send no
// diagnostics.
func TestCodeActions(t *testing.T) {
	s := newServer(context.Background(), Options{})
	u := protocol.DocumentURI("file:///p/c.go")
	rng := protocol.Range{Start: protocol.Position{Line: 21, Character: 18}, End: protocol.Position{Line: 21, Character: 21}}
	s.violations["v7"] = &violationRec{id: "v7", uri: u, reproName: "depcon_counter_test.go",
		diag: protocol.Diagnostic{Range: rng, Data: map[string]any{"violation": "v7"}}}
	s.violations["v8"] = &violationRec{id: "v8", uri: u, diag: protocol.Diagnostic{Range: rng}} // no reproducer
	byData := s.codeActions(&protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file:///elsewhere.go"},
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{{Data: map[string]any{"violation": "v7"}}}}})
	byRange := s.codeActions(&protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{Start: protocol.Position{Line: 20}, End: protocol.Position{Line: 22}}})
	for _, actions := range [][]protocol.CodeAction{byData, byRange} {
		if len(actions) != 1 || actions[0].Title != "write reproducer test" || actions[0].Command.Command != CommandWriteReproducer ||
			len(actions[0].Command.Arguments) != 1 || actions[0].Command.Arguments[0] != "v7" {
			t.Errorf("code actions: %+v", actions)
		}
	}
	if none := s.codeActions(&protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{Start: protocol.Position{Line: 3}, End: protocol.Position{Line: 4}}}); len(none) != 0 {
		t.Errorf("code actions away from the violation: %+v", none)
	}
}
