package sarif

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestParseFatal parses the details of a fatal error: the error line,
// then the runtime's goroutines, with a "created by" frame left out.
func TestParseFatal(t *testing.T) {
	details := `fatal error: concurrent map writes

goroutine 7 [running]:
example.com/m.(*Index).Add(0xc0000a0000, {0x5c1a2e, 0x1})
	/src/m/index.go:31 +0x6d
goroutine 8 [runnable]:
example.com/m.(*Index).Add(0xc0000a0000, {0x5c1a2f, 0x1})
	/src/m/index.go:31 +0x6d
created by example.com/m.Start in goroutine 1
	/src/m/index.go:50 +0x9a
goroutine 9 [chan receive]:
`
	got := parseDetails(details)
	want := []thread{
		{name: "goroutine 7 [running]", frames: []frame{{"example.com/m.(*Index).Add", "/src/m/index.go", 31}}},
		{name: "goroutine 8 [runnable]", frames: []frame{{"example.com/m.(*Index).Add", "/src/m/index.go", 31}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestParseReturned checks that a goroutine that returned has no thread.
func TestParseReturned(t *testing.T) {
	details := "goroutine 1 (a.Get): returned\ngoroutine 2 (b.Put):\ngoroutine 5 [select]:\nexample.com/m.(*Q).Put(...)\n\t/src/m/q.go:9\n"
	got := parseDetails(details)
	want := []thread{{name: "goroutine 2 (b.Put) [select]", frames: []frame{{"example.com/m.(*Q).Put", "/src/m/q.go", 9}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestFuncName(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/m.(*T).Put(0xc000010000, {0x1, 0x2})": "example.com/m.(*T).Put",
		"example.com/m.(*T).Put()":                         "example.com/m.(*T).Put",
		"sync.(*Mutex).Lock(...)":                          "sync.(*Mutex).Lock",
		"example.com/m.F.func1()":                          "example.com/m.F.func1",
		"main.main":                                        "main.main",
	} {
		if got := funcName(in); got != want {
			t.Errorf("funcName(%q) = %q, want %q", in, got, want)
		}
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
