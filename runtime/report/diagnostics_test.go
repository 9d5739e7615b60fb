package report

import (
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/stacks"
)

// TestMergeDiagnostics checks that merging shards keeps, for each
// diagnostic, the result of the shard that tested its type, in the
// order of positions.
func TestMergeDiagnostics(t *testing.T) {
	a := []*DiagnosticResult{
		{Analyzer: "x", Pos: "/p/c.go:10:2", Status: DiagNotTested},
		{Analyzer: "x", Pos: "/p/c.go:9:2", Status: DiagConfirmed},
	}
	b := []*DiagnosticResult{
		{Analyzer: "x", Pos: "/p/c.go:10:2", Status: DiagNotReached},
		{Analyzer: "x", Pos: "/p/c.go:9:2", Status: DiagNotTested},
	}
	got := mergeDiagnostics(a, b)
	if len(got) != 2 || got[0].Pos != "/p/c.go:9:2" || got[0].Status != DiagConfirmed || got[1].Status != DiagNotReached {
		t.Errorf("merged %+v %+v", got[0], got[1])
	}
}

// TestPassesThrough checks how a violation's stacks are matched with
// the line of a diagnostic's position: by base name and line, not by
// another file of the same line, not by a related position.
func TestPassesThrough(t *testing.T) {
	d := &load.Diagnostic{Pos: token.Position{Filename: "/m/p/file.go", Line: 12},
		Related: []load.Related{{Pos: token.Position{Filename: "/m/p/other.go", Line: 7}}}}
	frames := func(pos ...string) []stacks.Stack {
		var s stacks.Stack
		for _, p := range pos {
			file, line, _ := strings.Cut(p, ":")
			n, _ := strconv.Atoi(line)
			s.Frames = append(s.Frames, stacks.Frame{Func: "p.f", File: file, Line: n})
		}
		return []stacks.Stack{{}, s}
	}
	for _, tc := range []struct {
		stacks []stacks.Stack
		want   bool
	}{
		{frames("/tmp/copy/p/file.go:12"), true},
		{frames("/m/p/file.go:12"), true},
		{frames("/m/p/other.go:7"), false}, // a related position only
		{frames("/m/p/myfile.go:12"), false},
		{frames("/m/p/file.go:123"), false},
		{frames("/m/p/file.go:1"), false},
		{frames("/m/p/myfile.go:12", "/m/p/file.go:120", "/x/file.go:12"), true},
		{nil, false},
	} {
		if got := passesThrough(tc.stacks, d); got != tc.want {
			t.Errorf("passesThrough(%+v) = %v, want %v", tc.stacks, got, tc.want)
		}
	}
}
