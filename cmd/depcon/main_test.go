package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// depconBin builds the command once per test binary run.
func depconBin(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "depcon-bin")
		if err != nil {
			binErr = err
			return
		}
		bin = filepath.Join(dir, "depcon")
		out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
		if err != nil {
			binErr = errors.New(string(out))
		}
	})
	if binErr != nil {
		t.Fatalf("building depcon: %v", binErr)
	}
	return bin
}

// writeModule writes files into a new module directory.
func writeModule(t *testing.T, files map[string]string) string {
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

const lib = `package lib

import "sync"

// Pair is always locked First, then Second.
type Pair struct{ First, Second sync.Mutex }

func (p *Pair) Both() {
	p.First.Lock()
	defer p.First.Unlock()
	p.Second.Lock()
	defer p.Second.Unlock()
}
`

const app = `package app

import (
	"sync"

	"example.com/m/lib"
)

type Cache struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

func (c *Cache) Put(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.Len() > 10 {
		return
	}
	c.m[k] = 1
}

func Swap(p *lib.Pair) {
	p.Second.Lock()
	defer p.Second.Unlock()
	p.First.Lock()
	defer p.First.Unlock()
}

// Good is correctly synchronised.
type Good struct {
	mu sync.Mutex
	n  int
}

func (g *Good) Inc() { g.mu.Lock(); g.n++; g.mu.Unlock() }
func (g *Good) Get() int { g.mu.Lock(); defer g.mu.Unlock(); return g.n }
`

// TestGoVet runs the real go vet with depcon as its vet tool on a module
// of two packages: a self-deadlock and a lock-order inversion whose other
// half is in the imported package (facts crossing packages), and correct
// code that stays silent.
func TestGoVet(t *testing.T) {
	bin := depconBin(t)
	dir := writeModule(t, map[string]string{"lib/lib.go": lib, "app/app.go": app})
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("go vet: want a failure exit, got %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{
		"app/app.go:23:10: c.mu is locked (in Len) while already held",
		"app/app.go:32:14: lock order inversion: Swap locks p.First while holding p.Second, but lib.Both",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("go vet output lacks %q:\n%s", want, got)
		}
	}
	// Exactly the two findings (each with one related line), nothing on
	// Good or in lib.
	var findings []string
	for _, line := range strings.Split(got, "\n") {
		related := strings.Contains(line, ": \t") // go vet's related information
		if (strings.HasPrefix(line, "app/") || strings.HasPrefix(line, "lib/")) && !related {
			findings = append(findings, line)
		}
	}
	if len(findings) != 2 {
		t.Errorf("want 2 findings, got %d:\n%s", len(findings), got)
	}
}

// TestGoVetDependency vets the importing package alone: go vet analyses
// lib only for its facts then (a VetxOnly unit, given the suite reduced
// to what exports facts, suite.FactsOnly), and the inversion whose other
// half is in lib is still found. An analyzer flag, which go vet passes to
// every unit, selects the lock-order analyzer alone.
func TestGoVetDependency(t *testing.T) {
	bin := depconBin(t)
	dir := writeModule(t, map[string]string{"lib/lib.go": lib, "app/app.go": app})
	for _, c := range []struct {
		flags []string
		want  int
	}{{nil, 2}, {[]string{"-lockorder"}, 1}} {
		args := append(append([]string{"vet", "-vettool=" + bin}, c.flags...), "./app")
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("go %s: want a failure exit, got %v\n%s", strings.Join(args, " "), err, out)
		}
		got := string(out)
		if !strings.Contains(got, "app/app.go:32:14: lock order inversion: Swap locks p.First while holding p.Second, but lib.Both") {
			t.Errorf("go %s: the output lacks the inversion:\n%s", strings.Join(args, " "), got)
		}
		n := 0
		for _, line := range strings.Split(got, "\n") {
			if strings.HasPrefix(line, "app/") && !strings.Contains(line, ": \t") {
				n++
			}
		}
		if n != c.want {
			t.Errorf("go %s: want %d findings, got %d:\n%s", strings.Join(args, " "), c.want, n, got)
		}
	}
}

// TestPairsJSON checks depcon pairs -json on the hashtable example.
func TestPairsJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"depcon", "pairs", "-json", "../../testdata/src/hashtable"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var types []struct {
		Package    string   `json:"package"`
		Type       string   `json:"type"`
		Methods    []string `json:"methods"`
		PairsTotal int      `json:"pairs_total"`
		PairsPC    int      `json:"pairs_pc"`
		PairsD     int      `json:"pairs_d"`
		Pairs      []struct {
			M1, M2   string
			Deps     []string `json:"deps"`
			Evidence []struct {
				Kind string `json:"kind"`
				Text string `json:"text"`
			} `json:"evidence"`
		} `json:"pairs"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &types); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if len(types) != 1 || types[0].Type != "Table" || len(types[0].Methods) != 4 ||
		types[0].PairsTotal != 10 || types[0].PairsPC != 0 || types[0].PairsD != 1 {
		t.Fatalf("unexpected plan: %+v", types)
	}
	p := types[0].Pairs[0]
	if p.M1 != "Equal" || p.M2 != "Equal" || len(p.Deps) != 1 || p.Deps[0] != "d" ||
		len(p.Evidence) != 1 || !strings.Contains(p.Evidence[0].Text, "Equal locks t.mu then o.mu") {
		t.Errorf("unexpected pair: %+v", p)
	}
}

// TestUsage checks the exit status of bad invocations.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{"depcon"},
		{"depcon", "frobnicate"},
		{"depcon", "pairs", "-nosuchflag"},
		{"depcon", "pairs", "-type", "(", "."},
		{"depcon", "pairs", "./no/such/dir"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
		if stderr.Len() == 0 {
			t.Errorf("%q: no message on stderr", args)
		}
	}
}

// TestDefaultPackage checks that a command given no packages takes the
// package in the current directory, as go vet does, and that a bad flag
// is named with where the usage is, not followed by the whole of it.
func TestDefaultPackage(t *testing.T) {
	t.Chdir("../../testdata/runtime/ledger")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"depcon", "pairs"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "ledger.Ledger") {
		t.Errorf("depcon pairs: exit %d, stdout %q, stderr %q: want the pairs of the current directory's package",
			code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	code := run([]string{"depcon", "vet", "-nosuchflag"}, &stdout, &stderr)
	if want := "flag provided but not defined: -nosuchflag\nrun 'depcon vet -h' for its usage\n"; code != 2 || stderr.String() != want {
		t.Errorf("depcon vet -nosuchflag: exit %d, stderr %q: want 2 and %q", code, stderr.String(), want)
	}
}

func TestIsVetProtocol(t *testing.T) {
	for args, want := range map[string]bool{
		"-flags":               true,
		"-V=full":              true,
		"-json /tmp/x/vet.cfg": true,
		"pairs ./...":          false,
		"":                     false,
	} {
		if got := isVetProtocol(strings.Fields(args)); got != want {
			t.Errorf("isVetProtocol(%q) = %v, want %v", args, got, want)
		}
	}
}

var (
	binOnce sync.Once
	bin     string
	binErr  error
)

// TestVetGC checks the garbage collection a vet tool process sets for
// itself, and that GOGC or GOMEMLIMIT in the environment win.
func TestVetGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	for _, env := range []map[string]string{{"GOGC": "50"}, {"GOMEMLIMIT": "1GiB"}} {
		if vetGC(func(k string) string { return env[k] }) {
			t.Errorf("with %v: the GC was changed", env)
		}
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("with %v: GOGC %d", env, got)
		}
	}
	if !vetGC(func(string) string { return "" }) {
		t.Fatal("the GC was not changed")
	}
	if got := debug.SetGCPercent(100); got != vetGCPercent {
		t.Errorf("GOGC %d, want %d", got, vetGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != vetMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, vetMemoryLimit)
	}
}

// TestRelativePaths checks that depcon vet's positions under the current
// directory are printed relative to it, as go vet prints them, and the
// others as they are.
func TestRelativePaths(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	in := wd + "/a/a.go:3:1: a message\n" + wd + "/a/a.go:2:1: \trelated\n/elsewhere/b.go:1:1: other\n"
	want := "a/a.go:3:1: a message\na/a.go:2:1: \trelated\n/elsewhere/b.go:1:1: other\n"
	if got := string(relativePaths([]byte(in))); got != want {
		t.Errorf("relativePaths:\n%s\nwant\n%s", got, want)
	}
}
