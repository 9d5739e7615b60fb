package child

import (
	"archive/zip"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/depcon/depcon/runtime/harness"
)

// cachedSrc is a package of a module that reaches the user through the
// module cache. DepVersion tells which version of example.com/dep the
// build selected.
const cachedSrc = `package cached

import (
	"sync"

	"example.com/dep"
)

// Counter counts under a mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

// NewCounter returns a Counter.
func NewCounter() *Counter { return &Counter{} }

// Inc increments the count.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// DepVersion returns the version of example.com/dep built in.
func DepVersion() string { return dep.Version }
`

// soloSrc is a package of a module without requirements.
var soloSrc = strings.NewReplacer("package cached", "package solo", "\n\n\t\"example.com/dep\"", "").
	Replace(cachedSrc[:strings.Index(cachedSrc, "// DepVersion")])

// depVersionTest passes when the build selected the version of
// example.com/dep the user's module requires.
const depVersionTest = `package cached

import "testing"

func TestDepVersion(t *testing.T) {
	if v := DepVersion(); v != "1.1.0" {
		t.Fatalf("example.com/dep %s, want the user's 1.1.0", v)
	}
}
`

// TestModuleCache builds and runs, from a scratch main module, a
// package of a module in a read-only module cache filled from a file
// proxy. The module's own go.mod pins an older dependency through a
// replace directive that the user's build ignores, and its own tests do
// not compile. It also runs a test of a dependency replaced by a local
// directory, and builds a module of the cache run from its own
// directory.
func TestModuleCache(t *testing.T) {
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	writeModule(t, proxy, "example.com/dep", "v1.0.0", map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.13\n",
		"dep.go": "package dep\n\n// Version is the module version.\nconst Version = \"1.0.0\"\n"})
	writeModule(t, proxy, "example.com/dep", "v1.1.0", map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.13\n",
		"dep.go": "package dep\n\n// Version is the module version.\nconst Version = \"1.1.0\"\n"})
	writeModule(t, proxy, "example.com/cached", "v1.0.0", map[string]string{
		"go.mod": "module example.com/cached\n\ngo 1.16\n\nrequire example.com/dep v1.0.0\n\n" +
			"replace example.com/dep => example.com/dep v1.0.0\n",
		"cached.go":      cachedSrc,
		"cached_test.go": "package cached\n\nfunc TestBroken(t *testing.T) { undefined() }\n"})
	writeModule(t, proxy, "example.com/solo", "v1.0.0", map[string]string{
		"go.mod":  "module example.com/solo\n\ngo 1.16\n",
		"solo.go": soloSrc})
	cache := filepath.Join(tmp, "modcache")
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Cleanup(func() { makeWritable(cache) })

	// A dependency replaced by a local directory, which also requires
	// the older example.com/dep.
	local := filepath.Join(tmp, "local")
	writeFiles(t, local, map[string]string{
		"go.mod":   "module example.com/local\n\ngo 1.16\n\nrequire example.com/dep v1.0.0\n",
		"local.go": strings.Replace(cachedSrc, "package cached", "package local", 1)})
	main := filepath.Join(tmp, "main")
	writeFiles(t, main, map[string]string{
		"go.mod": "module example.com/main\n\ngo 1.22\n\nrequire (\n\texample.com/cached v1.0.0\n" +
			"\texample.com/dep v1.1.0\n\texample.com/local v0.0.0\n\texample.com/solo v1.0.0\n)\n\n" +
			"replace example.com/local => ../local\n",
		"main.go": "package main\n\nimport (\n\t_ \"example.com/cached\"\n\t_ \"example.com/local\"\n" +
			"\t_ \"example.com/solo\"\n)\n\nfunc main() {}\n"})
	_, target := loadTarget(t, main, "example.com/cached")
	if !beneath(target.Dir, cache) {
		t.Fatalf("package directory %s not in the module cache %s", target.Dir, cache)
	}
	_, localTarget := loadTarget(t, main, "example.com/local")
	// The cache holds the modules the user's module builds with and the
	// go.mod files of its whole module graph, as after go mod tidy.
	for _, args := range [][]string{{"mod", "download"}, {"list", "-m", "all"}} {
		if _, err := goOutput(context.Background(), main, nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, cache)
	userBefore := snapshot(t, main) + snapshot(t, local)

	b := buildChild(t, main, "example.com/cached", "Counter", "Get", "Inc")
	if beneath(b.Dir, cache) {
		t.Errorf("built in the module cache: %s", b.Dir)
	}
	if rep := serve(t, b, counterRequest()); rep.Result == nil || rep.Result.Status != harness.StatusOK {
		t.Errorf("reply %+v, want status %s", rep, harness.StatusOK)
	}
	res, err := RunTest(context.Background(), t.TempDir(), target,
		map[string][]byte{"dep_version_test.go": []byte(depVersionTest)}, "^TestDepVersion$", time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed {
		t.Errorf("dependency not resolved as in the user's module:\n%s", res.Output)
	}

	// The local replacement is built in place, from the user's module.
	res, err = RunTest(context.Background(), t.TempDir(), localTarget,
		map[string][]byte{"dep_version_test.go": []byte(strings.Replace(depVersionTest, "package cached", "package local", 1))},
		"^TestDepVersion$", time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed {
		t.Errorf("local replacement: dependency not resolved as in the user's module:\n%s", res.Output)
	}

	// Run from the module's own directory in the cache, the module is the
	// main module: the copy is built on its own.
	b = buildChild(t, filepath.Join(cache, "example.com", "solo@v1.0.0"), ".", "Counter", "Get", "Inc")
	if beneath(b.Dir, cache) {
		t.Errorf("built in the module cache: %s", b.Dir)
	}
	if rep := serve(t, b, counterRequest()); rep.Result == nil || rep.Result.Status != harness.StatusOK {
		t.Errorf("reply %+v, want status %s", rep, harness.StatusOK)
	}

	if after := snapshot(t, cache); after != before {
		t.Errorf("the module cache changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if after := snapshot(t, main) + snapshot(t, local); after != userBefore {
		t.Errorf("the user's module changed:\nbefore:\n%s\nafter:\n%s", userBefore, after)
	}
}

// writeModule adds version of the module path, made of files, to the
// file proxy in dir.
func writeModule(t *testing.T, dir, path, version string, files map[string]string) {
	t.Helper()
	v := filepath.Join(dir, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	list, _ := os.ReadFile(filepath.Join(v, "list"))
	z, err := os.Create(filepath.Join(v, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(z)
	for name, src := range files {
		w, err := zw.Create(path + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, v, map[string]string{
		"list":            string(list) + version + "\n",
		version + ".info": fmt.Sprintf(`{"Version":%q,"Time":"2024-01-01T00:00:00Z"}`, version),
		version + ".mod":  files["go.mod"],
	})
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot lists the files under dir with their modes, sizes and times.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %s\n", p, info.Mode(), info.Size(), info.ModTime().Format(time.RFC3339Nano))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// makeWritable makes the read-only directories of a module cache
// writable, so that it can be removed.
func makeWritable(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
}
