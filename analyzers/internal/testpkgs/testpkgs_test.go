package testpkgs_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"
)

// TestCopiesAgree checks that a test package found under several roots
// (a small library that the test packages of two analyzers import) has
// the same files under each, so that which root Config resolves it to
// does not matter.
func TestCopiesAgree(t *testing.T) {
	first := map[string]string{} // file path below src → root
	for _, root := range testpkgs.Roots(t) {
		src := filepath.Join(root, "src")
		err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, path)
			other, ok := first[rel]
			if !ok {
				first[rel] = root
				return nil
			}
			a, errA := os.ReadFile(filepath.Join(other, "src", rel))
			b, errB := os.ReadFile(path)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s differs between %s and %s", rel, other, root)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(first) == 0 {
		t.Fatal("no test package files found")
	}
}

// TestConfigLoads checks that Config finds packages of the repository's
// testdata and of an analyzer's, and a package that imports one under
// another root.
func TestConfigLoads(t *testing.T) {
	cfg := testpkgs.Config(t)
	cfg.Mode = packages.NeedName | packages.NeedImports
	pkgs, err := packages.Load(cfg, "hashtable", "lockorder/crosspkg", "truncatedcall")
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 || len(pkgs) != 3 {
		t.Fatalf("%d packages, %d errors", len(pkgs), n)
	}
}
