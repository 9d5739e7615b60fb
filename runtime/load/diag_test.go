package load

import (
	"go/token"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
)

func TestParsePosition(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want token.Position
		ok   bool
	}{
		{"/a/b.go:12:5", token.Position{Filename: "/a/b.go", Line: 12, Column: 5}, true},
		{"/a/b.go:12", token.Position{Filename: "/a/b.go", Line: 12}, true},
		{"C:/a/b.go:3:4", token.Position{Filename: "C:/a/b.go", Line: 3, Column: 4}, true},
		{`C:\a\b.go:3`, token.Position{Filename: `C:\a\b.go`, Line: 3}, true},
		{"", token.Position{}, false},
		{"b.go", token.Position{}, false},
		{":5", token.Position{}, false},
		{"/a/b.go:x", token.Position{}, false},
		{"/a/b.go:0", token.Position{}, false},
	} {
		got, ok := ParsePosition(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("ParsePosition(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestConcerns checks the rule that ties a diagnostic to the pairs whose
// tests can confirm it: both methods among the diagnostic's, or evidence
// on one of its lines.
func TestConcerns(t *testing.T) {
	d := &Diagnostic{Type: "T", Methods: []string{"Get", "Put"},
		Pos:     token.Position{Filename: "/p/t.go", Line: 10, Column: 3},
		Related: []Related{{Pos: token.Position{Filename: "/p/t.go", Line: 30, Column: 2}}}}
	ev := func(p1, p2 string) []deps.Evidence { return []deps.Evidence{{Pos1: p1, Pos2: p2}} }
	for _, tc := range []struct {
		m1, m2 string
		ev     []deps.Evidence
		want   bool
	}{
		{"Get", "Put", nil, true},
		{"Get", "Get", nil, true},
		{"Get", "Len", nil, false},
		{"Len", "Reset", ev("/p/t.go:10:9", "/p/t.go:50:1"), true},
		{"Len", "Reset", ev("/p/t.go:51:1", "/p/t.go:30:7"), true},
		{"Len", "Reset", ev("/p/u.go:10:1", "/p/t.go:11:1"), false},
	} {
		if got := d.Concerns(tc.m1, tc.m2, tc.ev); got != tc.want {
			t.Errorf("Concerns(%s, %s, %v) = %v", tc.m1, tc.m2, tc.ev, got)
		}
	}
	if (&Diagnostic{}).Concerns("Get", "Get", nil) {
		t.Error("a diagnostic outside methods concerns no pair")
	}
}
