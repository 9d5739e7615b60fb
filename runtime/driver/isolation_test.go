package driver

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/depcon/depcon/runtime/isolate"
)

// TestIsolationKeepsCanaries runs depcon test on testdata/runtime/hostile,
// whose methods try to remove a directory, write into the real home and
// temporary directories and the module cache, write at the filesystem
// root, connect to a listener, start 10,000 processes and allocate 64 GiB.
// Every canary must be intact, the listener must see no connection, no
// process may be left, and the report must name the denied operations
// without a single violation. Where the kernel offers no isolation, depcon
// test must refuse to run instead.
func TestIsolationKeepsCanaries(t *testing.T) {
	canary := t.TempDir()
	keep := filepath.Join(canary, "keep")
	if err := os.WriteFile(keep, []byte("canary"), 0o644); err != nil {
		t.Fatal(err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	modcache := strings.TrimSpace(string(out))
	written := []string{filepath.Join(home, "hostile-canary"), filepath.Join(os.TempDir(), "hostile-canary"),
		filepath.Join(modcache, "hostile-canary"), "/hostile-canary"}
	for _, p := range written {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("%s exists before the run", p)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var conns atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close()
		}
	}()
	t.Setenv("HOSTILE_CANARY_DIR", canary)
	t.Setenv("HOSTILE_REAL_HOME", home)
	t.Setenv("HOSTILE_REAL_TMP", os.TempDir())
	t.Setenv("HOSTILE_MODCACHE", modcache)
	t.Setenv("HOSTILE_ADDR", l.Addr().String())
	sleeps := countProcs(t, "sleep\x00120\x00")

	rep, err := runDriver(t, Config{Budget: 10 * time.Second, Isolation: isolate.Policy{Memory: 512 << 20}, Patterns: pkgs("hostile")})

	if b, err := os.ReadFile(keep); err != nil || string(b) != "canary" {
		t.Errorf("the canary directory was damaged: %q, %v", b, err)
	}
	for _, p := range written {
		if _, err := os.Stat(p); err == nil {
			_ = os.Remove(p)
			t.Errorf("%s was written", p)
		}
	}
	if n := conns.Load(); n > 0 {
		t.Errorf("the listener saw %d connections", n)
	}
	if n := countProcs(t, "sleep\x00120\x00"); n > sleeps {
		t.Errorf("%d processes started by the code under test outlived the run", n-sleeps)
	}
	j, jailErr := isolate.New(isolate.Policy{})
	if jailErr == nil {
		j.Close()
	}
	if jailErr != nil {
		if err == nil || !strings.Contains(err.Error(), "-unsafe-no-isolation") {
			t.Errorf("without isolation: error %v; want the flag that accepts the risk", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("depcon test: %v", err)
	}
	if n := rep.Violations(); n != 0 {
		t.Fatalf("%d violations, want none (nothing to report)\n%s", n, reportText(rep))
	}
	if !strings.HasPrefix(rep.Isolation, "landlock v") && !strings.HasPrefix(rep.Isolation, "mountns (read-only root)") {
		t.Errorf("the report's isolation is %q, want the mechanisms in force", rep.Isolation)
	}
	tr := typeReport(t, rep, "Store")
	if len(tr.Violations) > 0 {
		t.Errorf("violations reported: %+v", tr.Violations)
	}
	notes := strings.Join(tr.Notes, "\n")
	for _, m := range []string{"Wipe", "Save", "Escape", "Dial", "Spawn"} {
		if !strings.Contains(notes, m+" is not tested: it needs what the isolation denies") {
			t.Errorf("no note that %s was denied:\n%s", m, notes)
		}
	}
	if !strings.Contains(notes, "Hog is not tested: called alone, it ends the process (killed at the memory bound") {
		t.Errorf("no note that Hog reached the memory bound:\n%s", notes)
	}
}

// countProcs counts the processes whose command line is cmdline.
func countProcs(t *testing.T, cmdline string) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	n := 0
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && string(b) == cmdline {
			n++
		}
	}
	return n
}
