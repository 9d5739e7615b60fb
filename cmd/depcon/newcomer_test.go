package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The newcomer's module: a racy counter, a lock-order inversion, a
// correct type, and a package that does not parse.
var newcomerFiles = map[string]string{
	"counter/counter.go": `package counter

import "sync"

// Counter counts; Inc forgets the lock.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() { c.n++ }

func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
`,
	"bank/bank.go": `package bank

import "sync"

// Account moves money between accounts, locking the source first.
type Account struct {
	mu      sync.Mutex
	balance int
}

func NewAccount(b int) *Account { return &Account{balance: b} }

func (a *Account) Transfer(to *Account, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	a.balance -= n
	to.balance += n
}
`,
	"safe/safe.go": `package safe

import "sync"

// Set is a set of strings, safe for concurrent use.
type Set struct {
	mu sync.Mutex
	m  map[string]bool
}

func NewSet() *Set { return &Set{m: map[string]bool{}} }

func (s *Set) Add(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = true
}

func (s *Set) Has(k string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[k]
}
`,
	"broken/broken.go": "package broken\n\nfunc Broken( {\n",
}

// readmeCommands returns the commands of the README's "Check your own
// code" section, as written.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "## Check your own code")
	if !ok {
		t.Fatal("the README has no section \"Check your own code\"")
	}
	_, block, ok := strings.Cut(section, "```sh\n")
	if !ok {
		t.Fatal("the section has no sh block")
	}
	block, _, _ = strings.Cut(block, "```")
	var cmds []string
	for _, line := range strings.Split(block, "\n") {
		if line, _, _ = strings.Cut(line, "#"); strings.TrimSpace(line) != "" {
			cmds = append(cmds, strings.TrimSpace(line))
		}
	}
	return cmds
}

// TestNewcomer plays a new user on a scratch module: the README's
// commands for checking one's own code, run as written with depcon on
// the PATH, find the race and the inversion, stay silent on the correct
// type, name the package that does not parse and go on with the others,
// exit with the documented statuses, and write a reproducer that fails
// under go test -race.
func TestNewcomer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds race-enabled children")
	}
	bin := depconBin(t)
	dir := writeModule(t, newcomerFiles)
	cmds := readmeCommands(t)
	if len(cmds) != 3 || !strings.HasPrefix(cmds[0], "go vet -vettool=$(command -v depcon)") ||
		cmds[1] != "depcon test ./..." || cmds[2] != "depcon pairs ./..." {
		t.Fatalf("the README's commands changed: %q", cmds)
	}
	run := func(cmd string) (string, string, int) {
		t.Helper()
		c := exec.Command("bash", "-c", cmd)
		c.Dir = dir
		c.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		var stdout, stderr bytes.Buffer
		c.Stdout, c.Stderr = &stdout, &stderr
		err := c.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		return stdout.String(), stderr.String(), code
	}

	// go vet: the inversion, and the package that does not parse.
	out, errOut, code := run(cmds[0])
	if code != 1 || !strings.Contains(errOut, "bank.go") || !strings.Contains(errOut, "Transfer locks") ||
		!strings.Contains(errOut, "broken") {
		t.Errorf("%s: status %d, want 1 with the inversion and the broken package\n%s%s", cmds[0], code, out, errOut)
	}

	// depcon test, with a budget a newcomer in a hurry would give.
	repro := t.TempDir()
	test := strings.Replace(cmds[1], "depcon test", "depcon test -budget 5s -o "+repro, 1)
	out, errOut, code = run(test)
	if code != 1 {
		t.Errorf("%s: status %d, want 1 (findings)\n%s%s", cmds[1], code, out, errOut)
	}
	for _, want := range []string{
		"not loaded, not tested: example.com/m/broken",
		"RACE: Get ∥ Inc",
		"DEADLOCK: Transfer ∥ Transfer",
		"example.com/m/safe.Set: no violation found",
		"reach: tested with a working object: 3 of 3 types with synchronisation",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("%s: the report lacks %q\n%s%s", cmds[1], want, out, errOut)
		}
	}
	if !regexp.MustCompile(`(?m)^depcon test: example.com/m/broken: `).MatchString(errOut) {
		t.Errorf("%s: the broken package is not named on standard error:\n%s", cmds[1], errOut)
	}

	// A flag after the packages is named as such.
	if _, errOut, code := run(cmds[1] + " -budget 5s"); code != 2 ||
		!strings.Contains(errOut, "-budget after the packages: flags go before them") {
		t.Errorf("a flag after the packages: status %d, %s", code, errOut)
	}

	// The race's reproducer fails in the package under the race detector.
	files, _ := filepath.Glob(filepath.Join(repro, "*counter*_test.go"))
	if len(files) == 0 {
		t.Fatalf("no reproducer of the counter's race in %s", repro)
	}
	src, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "counter", filepath.Base(files[0])), src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = run("go test -race -count=1 ./counter/")
	if code == 0 || !strings.Contains(out+errOut, "DATA RACE") {
		t.Errorf("the reproducer passed (status %d):\n%s%s", code, out, errOut)
	}

	// depcon pairs: the pairs of the packages that load; no findings, a
	// package that does not load: 2.
	out, errOut, code = run(cmds[2])
	if code != 2 || !strings.Contains(out, "Get ~ Inc") || !strings.Contains(errOut, "broken") {
		t.Errorf("%s: status %d, want 2 with the pairs and the broken package\n%s%s", cmds[2], code, out, errOut)
	}
}
