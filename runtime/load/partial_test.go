package load_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/depcon/depcon/runtime/load"
)

// module writes a module example.com/m of the files in a new directory.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPartial loads a module where one package does not parse, one
// imports it, and two load: the two are returned, the other two are
// failed with the syntax error, the importer's attributed to the package
// it imports.
func TestPartial(t *testing.T) {
	dir := module(t, map[string]string{
		"good/good.go":   "package good\n\nfunc F() int { return 1 }\n",
		"bad/bad.go":     "package bad\n\nfunc F( {\n",
		"user/user.go":   "package user\n\nimport \"example.com/m/bad\"\n\nfunc G() { bad.F() }\n",
		"other/other.go": "package other\n\nimport \"example.com/m/good\"\n\nfunc G() int { return good.F() }\n",
	})
	good, failed, err := load.Partial(dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range good {
		got = append(got, p.PkgPath)
	}
	slices.Sort(got)
	if want := []string{"example.com/m/good", "example.com/m/other"}; !slices.Equal(got, want) {
		t.Errorf("loaded %v, want %v", got, want)
	}
	if len(failed) != 2 {
		t.Fatalf("failed %+v, want bad and user", failed)
	}
	byPath := map[string]string{}
	for _, f := range failed {
		byPath[f.Path] = f.Err
		if strings.Contains(f.Err, "\n") {
			t.Errorf("%s: the error is not one line: %q", f.Path, f.Err)
		}
	}
	badErr := byPath["example.com/m/bad"]
	if !strings.HasPrefix(badErr, "bad/bad.go:3:") {
		t.Errorf("bad: %q, want its syntax error at bad/bad.go:3", badErr)
	}
	if want := "imports example.com/m/bad, which does not load: " + badErr; byPath["example.com/m/user"] != want {
		t.Errorf("user: %q, want %q", byPath["example.com/m/user"], want)
	}
	if s := failed[0].String(); s != failed[0].Path+": "+failed[0].Err {
		t.Errorf("String() = %q", s)
	}
	if joined := errors.Join(failed[0], failed[1]).Error(); joined != failed[0].String()+"\n"+failed[1].String() {
		t.Errorf("errors.Join of the failures: %q", joined)
	}

	// The importer alone: failed because of its import, which is not a
	// root; nothing loads, which is an error.
	good, failed, err = load.Partial(dir, []string{"./user"})
	if err == nil || len(good) != 0 || len(failed) != 1 || failed[0].Path != "example.com/m/user" ||
		!strings.HasPrefix(failed[0].Err, "imports example.com/m/bad, which does not load: bad/bad.go:3:") {
		t.Errorf("./user: %v, %+v, %v; want the failure of user, through bad, and an error", good, failed, err)
	}

	// A directory that does not exist is a failed package too.
	good, failed, err = load.Partial(dir, []string{"./good", "./nosuch"})
	if err != nil || len(good) != 1 || len(failed) != 1 || !strings.Contains(failed[0].Path, "nosuch") {
		t.Errorf("./good ./nosuch: %v, %+v, %v; want good, and nosuch failed", good, failed, err)
	}

	// Patterns that match nothing.
	if _, _, err := load.Partial(dir, []string{"./none/..."}); err == nil {
		t.Error("./none/...: no error")
	}
}

// TestPartialTests loads a package whose test file does not compile
// beside one that loads, with their test variants: the package is
// reported once, the test's main package not at all.
func TestPartialTests(t *testing.T) {
	dir := module(t, map[string]string{
		"good/good.go":      "package good\n\nfunc F() int { return 1 }\n",
		"good/good_test.go": "package good\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
		"bad/bad.go":        "package bad\n\nfunc F() int { return 1 }\n",
		"bad/bad_test.go":   "package bad\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { var s string = F() }\n",
	})
	good, failed, err := load.PartialTests(dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || failed[0].Path != "example.com/m/bad" || !strings.HasPrefix(failed[0].Err, "bad/bad_test.go:5:") {
		t.Errorf("failed %+v, want bad once, with its test file's error", failed)
	}
	var ids []string
	for _, p := range good {
		ids = append(ids, p.ID)
	}
	if !slices.Contains(ids, "example.com/m/good") || !slices.Contains(ids, "example.com/m/bad") ||
		!slices.Contains(ids, "example.com/m/good [example.com/m/good.test]") {
		t.Errorf("loaded %v: want good, its test variant, and bad without its tests", ids)
	}
	for _, id := range ids {
		if strings.HasPrefix(id, "example.com/m/bad ") || id == "example.com/m/bad.test" {
			t.Errorf("loaded %s, whose test file does not compile", id)
		}
	}
}
