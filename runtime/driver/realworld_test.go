package driver

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestRealWorld runs docs/realworld.sh (popular modules from the module
// proxy, tested from a scratch module as a user would) when
// DEPCON_REALWORLD=1: it takes minutes and needs the proxy. Every
// package must build and load (exit status 0 or 1), and no violation may
// be left unconfirmed. docs/REALWORLD.md records a run and judges each
// violation.
func TestRealWorld(t *testing.T) {
	if os.Getenv("DEPCON_REALWORLD") != "1" {
		t.Skip("set DEPCON_REALWORLD=1 to run depcon test on popular modules (minutes, needs the module proxy)")
	}
	out := t.TempDir()
	cmd := exec.Command("bash", "../../docs/realworld.sh", out)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	b, err := cmd.CombinedOutput()
	t.Logf("%s", b)
	if err != nil {
		t.Fatalf("realworld.sh: %v", err)
	}
	line := regexp.MustCompile(`^(\S+)\s+exit (\d)\s+types\s+(\d+)\s+violations (\d+) \(unconfirmed (\d+)\)`)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n++
		if m[2] == "2" {
			t.Errorf("%s: exit status 2 (does not load or build); see %s", m[1], out)
		}
		if m[3] == "0" {
			t.Errorf("%s: no type tested", m[1])
		}
		if m[5] != "0" {
			t.Errorf("%s: %s unconfirmed violations", m[1], m[5])
		}
	}
	if n < 8 {
		t.Errorf("%d packages reported, want at least 8", n)
	}
}
