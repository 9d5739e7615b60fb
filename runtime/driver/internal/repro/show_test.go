package repro

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestShowRenders compiles showSource, the harness's show as reproducers
// carry it, in a module at go 1.13 (the oldest language version a
// reproducer compiles at) and checks that showAll renders each kind of
// value as the harness's show documents it.
func TestShowRenders(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	var imports strings.Builder
	for _, p := range append([]string{"errors", "testing"}, showImports...) {
		fmt.Fprintf(&imports, "\t%q\n", p)
	}
	src := `package p

import (
` + imports.String() + `)

type myErr struct{}

func (*myErr) Error() string { return "mine" }

func TestShow(t *testing.T) {
` + showSource + `
	var nilErr *myErr
	var nilIface error
	got := showAll(nil, nilIface, errors.New("x"), nilErr, error(nilErr), &myErr{},
		(*int)(nil), new(int), make(chan int), (func())(nil), func() {},
		[]int{3, 1, 2}, []int(nil), [2]string{"b", "a"}, []interface{}{nil, errors.New("y"), 1},
		"s", 4, struct{ A, B int }{1, 2})
	want := []string{"nil", "nil", "error", "nil", "nil", "error",
		"nil", "non-nil", "non-nil", "nil", "non-nil",
		"[1 2 3]", "[]", "[a b]", "[1 error nil]",
		"s", "4", "{1 2}"}
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d: %q", len(got), len(want), got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("value %d: %q, want %q", i, got[i], want[i])
		}
	}
}
`
	dir := t.TempDir()
	for name, data := range map[string]string{"go.mod": "module example.com/p\n\ngo 1.13\n", "show_test.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test: %v\n%s\n%s", err, out, src)
	}
}

// TestShowFrom checks what showFrom carries from a harness: the
// package-level variables and constants show reads (declared before
// it, also from another file, and what they read in turn), the imports
// it uses, the old name of a renamed library name; and that it refuses
// a show that calls a function of the harness, or none.
func TestShowFrom(t *testing.T) {
	files := fstest.MapFS{
		"a.go": {Data: []byte(`package h

import (
	"reflect"
	"strings"
	"unused"
)

func show(v reflect.Value) string {
	if v.Kind() == reflect.Pointer {
		return prefix
	}
	s := strings.Repeat(sep, 2)
	return s
}
`)},
		"b.go": {Data: []byte(`package h

import "strings"

const sep = "-"

var prefix = strings.ToUpper(base)

var base = "p" + sep

func helper() {}
`)},
	}
	src, imports, err := showFrom(files)
	if err != nil {
		t.Fatal(err)
	}
	want := `const sep = "-"
var base = "p" + sep
var prefix = strings.ToUpper(base)
var show func(v reflect.Value) string
show = func(v reflect.Value) string {
	if v.Kind() == reflect.Ptr {
		return prefix
	}
	s := strings.Repeat(sep, 2)
	return s
}
`
	if !strings.HasPrefix(src, want) || !strings.Contains(src, "showAll := func(vs ...interface{}) []string {") {
		t.Errorf("showFrom gave\n%s\nwant it to begin\n%s\nand declare showAll", src, want)
	}
	if got := strings.Join(imports, " "); got != "reflect strings" {
		t.Errorf("imports %q, want %q", got, "reflect strings")
	}

	files["a.go"] = &fstest.MapFile{Data: []byte("package h\n\nfunc show() string { helper(); return \"\" }\n")}
	if _, _, err := showFrom(files); err == nil || !strings.Contains(err.Error(), "helper") {
		t.Errorf("a show that calls helper: error %v", err)
	}
	delete(files, "a.go")
	if _, _, err := showFrom(files); err == nil {
		t.Error("no show: no error")
	}
}
