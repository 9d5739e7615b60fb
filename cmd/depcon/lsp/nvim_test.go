package lsp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nvimDiagnostic is a diagnostic as testdata/nvim/diagnostics.lua writes
// it: vim.diagnostic's fields, and the LSP fields Neovim keeps in
// user_data.lsp.
type nvimDiagnostic struct {
	Lnum    int    `json:"lnum"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Source  string `json:"source"`
	Code    string `json:"code"`
	Href    string `json:"href"`
	Related []struct {
		Location struct {
			URI   string `json:"uri"`
			Range struct {
				Start struct {
					Line      int `json:"line"`
					Character int `json:"character"`
				} `json:"start"`
			} `json:"range"`
		} `json:"location"`
		Message string `json:"message"`
	} `json:"related"`
}

// TestNeovim runs depcon lsp under headless Neovim's built-in LSP client
// (.ci/run installs Debian's neovim when it is missing) and checks the
// self-deadlock diagnostic and its related location Neovim stored.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not on PATH: install Neovim (Debian: apt-get install neovim) to run this test")
	}
	dir := copyDemo(t)
	registry := filepath.Join(dir, "registry.go")
	script, err := filepath.Abs(filepath.Join("testdata", "nvim", "diagnostics.lua"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "diagnostics.json")
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = dir
	// Neovim's files go to a temporary home; the go command keeps its
	// caches.
	goEnv, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	vals := strings.Split(strings.TrimSpace(string(goEnv)), "\n")
	if len(vals) != 3 {
		t.Fatalf("go env: %q", goEnv)
	}
	cmd.Env = append(os.Environ(), "DEPCON_BIN="+binary, "DEPCON_FILE="+registry, "DEPCON_ROOT="+dir, "DEPCON_OUT="+out,
		"GOCACHE="+vals[0], "GOMODCACHE="+vals[1], "GOPATH="+vals[2],
		"HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home, "XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home)
	output, err := cmd.CombinedOutput()
	t.Logf("nvim ran %.1fs", time.Since(start).Seconds())
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, output)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, output)
	}
	var res struct {
		OK          bool             `json:"ok"`
		Nvim        string           `json:"nvim"`
		Diagnostics []nvimDiagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("bad result %s: %v", data, err)
	}
	t.Logf("Neovim %s: %s", res.Nvim, data)
	if !res.OK {
		t.Fatalf("Neovim got no depcon diagnostic in time\n%s", output)
	}
	var d *nvimDiagnostic
	for i := range res.Diagnostics {
		if res.Diagnostics[i].Code == "selfdeadlock" {
			d = &res.Diagnostics[i]
		}
	}
	if d == nil {
		t.Fatalf("no selfdeadlock diagnostic: %+v", res.Diagnostics)
	}
	if want := int(lineOf(t, registry, "return r.Len()")); d.Lnum != want || !strings.Contains(d.Message, "not reentrant") ||
		d.Href != "https://pkg.go.dev/github.com/depcon/depcon/analyzers/selfdeadlock" {
		t.Errorf("diagnostic %+v, want on line %d", d, want)
	}
	if len(d.Related) != 1 || d.Related[0].Location.URI != string(fileURI(registry)) ||
		d.Related[0].Location.Range.Start.Line != int(lineOf(t, registry, "func (r *Registry) Put"))+1 ||
		!strings.Contains(d.Related[0].Message, "acquired here") {
		t.Errorf("related information: %+v", d.Related)
	}
}
