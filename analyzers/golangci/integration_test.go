package golangci

// The integration test builds a real custom golangci-lint with the depcon
// plugin compiled in (the "manual way": golangci-lint custom would git-clone,
// this takes golangci-lint's source from the Go module proxy), then runs it
// on a small module with a self-deadlock.
//
// The built binary is kept in os.UserCacheDir()/depcon-gcl/, keyed by the
// golangci-lint version, the Go toolchain and a hash of the depcon sources
// compiled into the plugin, so only the first run (or the first after a
// change of those sources) pays for the build.
//
// Environment:
//
//	DEPCON_SKIP_GOLANGCI=1      skip the test (so does go test -short)
//	DEPCON_GOLANGCI_VERSION=vX  build another golangci-lint v2 release
//	DEPCON_GCL_CACHE=dir        keep the built binaries in dir

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// golangciVersion is the golangci-lint release the test builds.
const golangciVersion = "v2.15.0"

// recipe changes whenever buildGolangci changes in a way that makes older
// cached binaries wrong.
const recipe = "depcon-gcl/1"

// keepBinaries is how many built binaries the cache keeps (the newest).
const keepBinaries = 3

const depconModule = "github.com/depcon/depcon"

// target is the module the custom binary lints. The line marked DEADLOCK is
// the one issue expected: Reset holds c.mu and calls Value, which locks c.mu
// again; sync.Mutex is not reentrant. Everything else is correct locking.
var target = map[string]string{
	"go.mod": "module example.com/target\n\ngo 1.26\n",
	".golangci.yml": `version: "2"
linters:
  default: none
  enable:
    - depcon
  settings:
    custom:
      depcon:
        type: module
        description: thread-safety violations
        settings:
          disable: []
`,
	"counter/counter.go": `// Package counter has one self-deadlock and correct code around it.
package counter

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Reset re-acquires c.mu through Value while holding it.
func (c *Counter) Reset() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.Value() // DEADLOCK
	c.n = 0
	return old
}

// Swap is correct: it calls the helper that expects c.mu held.
func (c *Counter) Swap(n int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.valueLocked()
	c.n = n
	return old
}

// Add is correct: it releases c.mu before calling Value.
func (c *Counter) Add(d int) int {
	c.mu.Lock()
	c.n += d
	c.mu.Unlock()
	return c.Value()
}

// valueLocked must be called with c.mu held.
func (c *Counter) valueLocked() int { return c.n }
`,
}

// gclIssue is the part of a golangci-lint JSON issue the test reads.
type gclIssue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename string
		Line     int
		Column   int
	}
}

func TestGolangciLintCustomBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint: skipped with -short")
	}
	if os.Getenv("DEPCON_SKIP_GOLANGCI") == "1" {
		t.Skip("DEPCON_SKIP_GOLANGCI=1")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is needed: %v", err)
	}

	ctx := t.Context()
	if dl, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-30*time.Second))
		defer cancel()
	}

	bin := customBinary(ctx, t)

	// The plugin is compiled in, registered, and gets its settings: a bad
	// one stops golangci-lint with the plugin's own message.
	t.Run("settings", func(t *testing.T) {
		files := maps.Clone(target)
		files[".golangci.yml"] = strings.Replace(files[".golangci.yml"],
			"disable: []", "disable: [nosuchcheck]", 1)
		code, _, output := runGolangci(ctx, t, bin, files)
		if code == 0 || code == 1 {
			t.Errorf("exit status %d, want a failure (neither 0 nor 1)", code)
		}
		if want := `unknown analyzer "nosuchcheck"`; !strings.Contains(output, want) {
			t.Errorf("output does not contain %q", want)
		}
	})

	// depcon's own tree is clean under its own .golangci.yml, which
	// enables the plugin next to the standard linters.
	t.Run("self", func(t *testing.T) {
		cmd := exec.CommandContext(ctx, bin, "run", "--show-stats=false", "./...")
		cmd.Dir = repoRoot(ctx, t)
		cmd.Env = append(goEnv(), "GOLANGCI_LINT_CACHE="+t.TempDir())
		cmd.WaitDelay = 10 * time.Second
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("golangci-lint run ./... on depcon: %v\n%s", err, out)
		}
	})

	// The self-deadlock is reported, once, where it is, and nothing else.
	t.Run("selfdeadlock", func(t *testing.T) {
		wantLine := markedLine(t, target["counter/counter.go"], "// DEADLOCK")
		code, issues, _ := runGolangci(ctx, t, bin, target)

		// golangci-lint exits 1 when it found issues, 0 when none, other
		// codes on failure (3 for a bad configuration, ...).
		if code != 1 {
			t.Errorf("exit status %d, want 1 (issues found)", code)
		}
		// golangci-lint shows a diagnostic's related information as
		// issues of its own, "analyzer(related information): ...".
		var depcon, related []gclIssue
		for _, is := range issues {
			if is.FromLinter == Name && strings.Contains(is.Text, "(related information)") {
				related = append(related, is)
			} else if is.FromLinter == Name {
				depcon = append(depcon, is)
			} else {
				t.Errorf("issue from linter %q, want only %q: %s:%d: %s", is.FromLinter, Name, is.Pos.Filename, is.Pos.Line, is.Text)
			}
		}
		if len(depcon) != 1 {
			t.Fatalf("%d issues from linter %s, want exactly 1 (the self-deadlock at counter/counter.go:%d)", len(depcon), Name, wantLine)
		}
		is := depcon[0]
		if filepath.ToSlash(is.Pos.Filename) != "counter/counter.go" || is.Pos.Line != wantLine {
			t.Errorf("issue at %s:%d, want counter/counter.go:%d", is.Pos.Filename, is.Pos.Line, wantLine)
		}
		if !strings.Contains(is.Text, "already held") {
			t.Errorf("issue text %q does not contain %q", is.Text, "already held")
		}
		// The related information points at the first Lock, the line
		// before the marked one's statement block (Lock, defer Unlock).
		if len(related) != 1 || related[0].Pos.Line != wantLine-2 {
			t.Errorf("related information: %+v, want one at counter/counter.go:%d", related, wantLine-2)
		}
	})
}

// runGolangci writes files into a new module and runs bin on it. It returns
// the exit status, the issues of the JSON report (none if it wrote no
// report), and what golangci-lint printed.
func runGolangci(ctx context.Context, t *testing.T, bin string, files map[string]string) (int, []gclIssue, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	report := filepath.Join(dir, "issues.json")
	cmd := exec.CommandContext(ctx, bin, "run",
		"--output.json.path="+report,
		"--show-stats=false",
		"./...")
	cmd.Dir = dir
	cmd.Env = append(goEnv(),
		"GOFLAGS=-mod=mod",
		"GOLANGCI_LINT_CACHE="+t.TempDir(), // no findings cached from an older plugin
	)
	var output bytes.Buffer
	cmd.Stdout = &output
	cmd.Stderr = &output
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	code := 0
	if err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			t.Fatalf("running %s: %v", bin, err)
		}
		code = exitErr.ExitCode()
	}
	t.Logf("golangci-lint run: exit status %d after %v", code, time.Since(start).Round(time.Millisecond))
	if output.Len() > 0 {
		t.Logf("golangci-lint output:\n%s", output.String())
	}

	data, err := os.ReadFile(report)
	if os.IsNotExist(err) {
		return code, nil, output.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Issues []gclIssue }
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("decoding the JSON report: %v\n%s", err, data)
	}
	for _, is := range res.Issues {
		t.Logf("issue: %s:%d:%d: %s (%s)", is.Pos.Filename, is.Pos.Line, is.Pos.Column, is.Text, is.FromLinter)
	}
	return code, res.Issues, output.String()
}

func markedLine(t *testing.T, src, marker string) int {
	t.Helper()
	for i, line := range strings.Split(src, "\n") {
		if strings.Contains(line, marker) {
			return i + 1
		}
	}
	t.Fatalf("no line marked %q", marker)
	return 0
}

// customBinary returns the path of a golangci-lint with the depcon plugin,
// from the cache or freshly built.
func customBinary(ctx context.Context, t *testing.T) string {
	t.Helper()
	version := golangciVersion
	if v := os.Getenv("DEPCON_GOLANGCI_VERSION"); v != "" {
		version = v
	}
	root := repoRoot(ctx, t)
	key := cacheKey(ctx, t, root, version)

	cacheDir := os.Getenv("DEPCON_GCL_CACHE")
	if cacheDir == "" {
		userCache, err := os.UserCacheDir()
		if err != nil {
			t.Fatalf("no cache directory: %v", err)
		}
		cacheDir = filepath.Join(userCache, "depcon-gcl")
	}
	exe := "golangci-lint"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	entry := filepath.Join(cacheDir, version+"-"+key)
	bin := filepath.Join(entry, exe)
	if _, err := os.Stat(bin); err == nil {
		t.Logf("using cached %s", bin)
		now := time.Now()
		_ = os.Chtimes(entry, now, now) // keep it among the newest
		return bin
	}

	start := time.Now()
	built := buildGolangci(ctx, t, root, version)
	t.Logf("built golangci-lint %s with depcon in %v", version, time.Since(start).Round(time.Second))

	// Move it into the cache; a rename makes a concurrent run see either
	// no binary or a whole one.
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".build-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp) // gone already once renamed
	if err := copyFile(built, filepath.Join(tmp, exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, entry); err != nil {
		// Another run got there first: use its binary.
		_ = os.RemoveAll(tmp)
		if _, statErr := os.Stat(bin); statErr != nil {
			t.Fatalf("caching the binary: %v", err)
		}
	}
	pruneCache(t, cacheDir, entry)
	return bin
}

// buildGolangci builds golangci-lint version with the plugin of the depcon
// checkout at root, and returns the binary's path (in a temp dir).
func buildGolangci(ctx context.Context, t *testing.T, root, version string) string {
	t.Helper()
	work := t.TempDir()

	// golangci-lint's source, from the module proxy.
	var dl struct{ Dir, Error string }
	outJSON := runGo(ctx, t, work, nil, "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@"+version)
	if err := json.Unmarshal(outJSON, &dl); err != nil || dl.Dir == "" {
		t.Fatalf("go mod download of golangci-lint %s: %v %s\n%s", version, err, dl.Error, outJSON)
	}

	src := filepath.Join(work, "golangci-lint")
	if err := copyTree(dl.Dir, src); err != nil {
		t.Fatalf("copying %s: %v", dl.Dir, err)
	}

	// The file golangci-lint custom would generate: the plugin's blank import.
	plugins := "// Code generated by depcon's integration test. DO NOT EDIT.\n\n" +
		"package main\n\nimport _ \"" + depconModule + "/analyzers/golangci\"\n"
	if err := os.WriteFile(filepath.Join(src, "cmd", "golangci-lint", "plugins.go"), []byte(plugins), 0o644); err != nil {
		t.Fatal(err)
	}

	env := []string{"GOFLAGS=-mod=mod"}
	runGo(ctx, t, src, env, "mod", "edit",
		"-require="+depconModule+"@v0.0.0",
		"-replace="+depconModule+"="+root)
	runGo(ctx, t, src, env, "mod", "tidy")
	bin := filepath.Join(work, "golangci-lint.bin")
	runGo(ctx, t, src, env, "build",
		"-trimpath",
		"-ldflags=-s -w -X main.version="+strings.TrimPrefix(version, "v")+"-depcon",
		"-o", bin, "./cmd/golangci-lint")
	return bin
}

// cacheKey hashes what goes into the custom binary besides golangci-lint
// itself: the toolchain, depcon's go.mod/go.sum and the source files of
// every depcon package the plugin links.
func cacheKey(ctx context.Context, t *testing.T, root, version string) string {
	t.Helper()
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", recipe, version, runtime.Version())

	const format = `{{if and .Module (eq .Module.Path "` + depconModule + `")}}` +
		`{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}` +
		`{{range .CgoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}` +
		`{{range .EmbedFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{end}}`
	out := runGo(ctx, t, root, nil, "list", "-deps", "-e", "-f", format, "./analyzers/golangci")
	files := strings.Fields(string(out))
	files = append(files, filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum"))
	slices.Sort(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil && (!os.IsNotExist(err) || filepath.Base(f) != "go.sum") {
			t.Fatalf("hashing depcon sources: %v", err)
		}
		rel, _ := filepath.Rel(root, f)
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "%s %x\n", filepath.ToSlash(rel), sum)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func repoRoot(ctx context.Context, t *testing.T) string {
	t.Helper()
	out := runGo(ctx, t, ".", nil, "env", "GOMOD")
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		t.Fatal("not inside the depcon module")
	}
	root, err := filepath.Abs(filepath.Dir(gomod))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// goEnv is the environment for go and golangci-lint: the test's, without
// a workspace (the temp modules are not part of any).
func goEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GOWORK=") || strings.HasPrefix(kv, "GOFLAGS=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOWORK=off")
}

// runGo runs the go command in dir and returns its standard output. Its
// standard error streams into the test log, line by line, as it comes, so a
// long build shows where it is and a failure shows why.
func runGo(ctx context.Context, t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(goEnv(), env...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	lw := &lineLogger{t: t, prefix: "go " + args[0] + ": "}
	cmd.Stderr = lw
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	lw.flush()
	if lw.downloads > 0 {
		t.Logf("go %s: downloaded %d modules in %v", args[0], lw.downloads, time.Since(start).Round(time.Second))
	}
	if err != nil {
		if stdout.Len() > 0 && args[0] != "list" {
			t.Logf("go %s stdout:\n%s", args[0], stdout.String())
		}
		t.Fatalf("go %s (in %s, after %v): %v", strings.Join(args, " "), dir, time.Since(start).Round(time.Second), err)
	}
	return stdout.Bytes()
}

// lineLogger writes each complete line it is given to the test log, less
// the "go: downloading" lines (hundreds on a clean machine), which it counts.
type lineLogger struct {
	t         *testing.T
	prefix    string
	mu        sync.Mutex
	buf       []byte
	downloads int
}

func (l *lineLogger) log(line string) {
	if strings.HasPrefix(line, "go: downloading ") {
		l.downloads++
		return
	}
	l.t.Log(l.prefix + line)
}

func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.log(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
	return len(p), nil
}

func (l *lineLogger) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		sc := bufio.NewScanner(bytes.NewReader(l.buf))
		for sc.Scan() {
			l.log(sc.Text())
		}
		l.buf = nil
	}
}

// copyTree copies the module tree src (read-only in the module cache) to
// dst, with the files writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil // a module zip holds regular files only
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return copyFile(path, target, info.Mode().Perm()|0o644)
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// pruneCache removes all but the keepBinaries newest cache entries; it
// never removes keep, the entry in use.
func pruneCache(t *testing.T, cacheDir, keep string) {
	entries, err := os.ReadDir(cacheDir)
	if err != nil {
		return
	}
	type aged struct {
		path string
		mod  time.Time
	}
	var all []aged
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		all = append(all, aged{filepath.Join(cacheDir, e.Name()), info.ModTime()})
	}
	slices.SortFunc(all, func(a, b aged) int { return b.mod.Compare(a.mod) })
	for i, a := range all {
		if i >= keepBinaries && a.path != keep {
			if err := os.RemoveAll(a.path); err == nil {
				t.Logf("removed old cached binary %s", a.path)
			}
		}
	}
}
