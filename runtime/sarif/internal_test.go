package sarif

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/depcon/depcon/runtime/stacks"
)

// TestThreads checks the names of a violation's goroutines in code
// flows, and that a goroutine without frames (one that had returned)
// has no thread.
func TestThreads(t *testing.T) {
	f := []stacks.Frame{{Func: "example.com/m.(*Q).Put", File: "/src/m/q.go", Line: 9}}
	got := threads([]stacks.Stack{
		{Label: "goroutine 1 (a.Get)"},
		{Label: "goroutine 2 (b.Put)", Header: "goroutine 5 [select]", State: "select", Frames: f},
		{Label: "goroutine calling Put", Frames: f},
		{Header: "Previous write at 0x00c000012345 by goroutine 8", Access: "write", Frames: f},
		{Header: "goroutine 7 [running]", State: "running", Frames: f},
	})
	want := []thread{
		{name: "goroutine 2 (b.Put) [select]", frames: f},
		{name: "goroutine calling Put", frames: f},
		{name: "Previous write by goroutine 8", frames: f},
		{name: "goroutine 7 [running]", frames: f},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestColumns checks the conversion of byte columns into UTF-16 columns,
// and paths inside and outside the root.
func TestColumns(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "p", "a.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	// "é" is 2 bytes and 1 UTF-16 unit, "😀" 4 bytes and 2 units.
	if err := os.WriteFile(file, []byte("package p\nvar s = \"é😀\" + x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := newLocator(root)
	// x is at byte column 19 of line 2: 9 bytes, 2+4 of the runes, 5 more.
	pl := l.location(file, 2, 19, 2, 20)
	if pl.ArtifactLocation.URI != "p/a.go" || pl.ArtifactLocation.URIBaseID != SrcRoot ||
		*pl.Region != (Region{StartLine: 2, StartColumn: 16, EndLine: 2, EndColumn: 17}) {
		t.Errorf("location %+v %+v", pl.ArtifactLocation, pl.Region)
	}
	// An unreadable file keeps its byte columns; a path outside the root
	// is an absolute file URI.
	pl = l.location("/elsewhere/b c.go", 3, 7, 0, 0)
	if pl.ArtifactLocation.URI != "file:///elsewhere/b%20c.go" || pl.ArtifactLocation.URIBaseID != "" ||
		*pl.Region != (Region{StartLine: 3, StartColumn: 7}) {
		t.Errorf("location %+v %+v", pl.ArtifactLocation, pl.Region)
	}
	if _, ok := l.under(filepath.Join(root, "..", filepath.Base(root)+"x", "c.go")); ok {
		t.Error("a sibling directory with the root's name as prefix is under the root")
	}
}
