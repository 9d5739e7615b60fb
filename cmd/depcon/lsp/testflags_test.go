package lsp

import (
	"bytes"
	"context"
	"flag"
	"net"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/depcon/depcon/runtime/driver"
	"github.com/depcon/depcon/runtime/isolate"
	"github.com/depcon/depcon/runtime/report"
)

// comparableConfig returns cfg without what only reports (Progress,
// Verbose), and with TypeRE as its text, for reflect.DeepEqual.
func comparableConfig(cfg driver.Config) (driver.Config, string) {
	re := ""
	if cfg.TypeRE != nil {
		re = cfg.TypeRE.String()
	}
	cfg.TypeRE, cfg.Progress, cfg.Verbose = nil, nil, nil
	return cfg, re
}

// commandLine returns the configuration of depcon test with the
// arguments of a command line (split at spaces) run in dir.
func commandLine(t *testing.T, dir, line string) driver.Config {
	t.Helper()
	cfg, err := driver.ParseTestFlags(strings.Fields(line))
	if err != nil {
		t.Fatalf("depcon test %s: %v", line, err)
	}
	cfg.Dir = dir // run in dir: the patterns are relative to it
	return cfg
}

// sameConfig fails unless the editor's configuration is the command
// line's.
func sameConfig(t *testing.T, editor, cli driver.Config, line string) {
	t.Helper()
	e, ere := comparableConfig(editor)
	c, cre := comparableConfig(cli)
	if ere != cre || !reflect.DeepEqual(e, c) {
		t.Errorf("the editor's configuration differs from depcon test %s:\neditor: %+v -type %q\ncommand line: %+v -type %q",
			line, e, ere, c, cre)
	}
}

// TestEditorConfig checks that the editor's test of a type is configured
// as depcon test -type '^Name$' . run in the package's directory, with
// the same flags: without any (the defaults: every pair tested until the
// budget ends, not only up to the first violation), with the server's
// budget and -reproduce, with a command's budget, and with test flags.
func TestEditorConfig(t *testing.T) {
	dir := "/src/demo"
	for _, tc := range []struct {
		opts   Options
		budget time.Duration
		line   string // depcon test's arguments
	}{
		{Options{}, 0, "-type ^Counter$ ."},
		{Options{Budget: 5 * time.Second, NoReproduce: true}, 5 * time.Second, "-budget 5s -reproduce=false -type ^Counter$ ."},
		{Options{Budget: 5 * time.Second}, 2 * time.Second, "-budget 2s -type ^Counter$ ."},
		{Options{TestFlags: []string{"-iters", "7", "-sched", "pct", "-p", "1", "-first", "-max-memory", "512", "-max-tasks", "64", "-unsafe-no-isolation", "-o", "repro"}},
			0, "-iters 7 -sched pct -p 1 -first -max-memory 512 -max-tasks 64 -unsafe-no-isolation -o /src/demo/repro -type ^Counter$ ."},
	} {
		editor, err := testConfig(tc.opts, dir, "Counter", tc.budget)
		if err != nil {
			t.Errorf("%+v: %v", tc.opts, err)
			continue
		}
		sameConfig(t, editor, commandLine(t, dir, tc.line), tc.line)
	}
	// What depcon test's defaults are, that the editor once set apart.
	cfg, err := testConfig(Options{}, dir, "Counter", 0)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.First || cfg.Out != "" || cfg.Seed != 1 || cfg.Budget != driver.DefaultBudget || cfg.Parallel != driver.DefaultParallel() ||
		cfg.Isolation.Memory != isolate.DefaultMemory || cfg.PCTDepth != driver.DefaultPCTDepth || cfg.Dir != dir ||
		!reflect.DeepEqual(cfg.Patterns, []string{"."}) || cfg.TypeRE.String() != "^Counter$" {
		t.Errorf("the editor's default configuration: %+v", cfg)
	}
	if _, err := testConfig(Options{TestFlags: []string{"-pairs", "some"}}, dir, "Counter", 0); err == nil {
		t.Errorf("a bad test flag was accepted")
	}
}

// TestTestFlagsOfTheCommand checks that the flags of TestFlags are
// those of depcon test, the built command: each one's name, default and
// usage are in its -h, but the hidden ones'.
func TestTestFlagsOfTheCommand(t *testing.T) {
	cmd := exec.Command(binary, "test", "-h")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("depcon test -h: %v\n%s", err, out.String())
	}
	fs := flag.NewFlagSet("depcon test", flag.ContinueOnError)
	driver.AddTestFlags(fs)
	shown := flag.NewFlagSet("shown", flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		if _, hidden := driver.HiddenTestFlags()[f.Name]; !hidden {
			shown.Var(f.Value, f.Name, f.Usage)
			shown.Lookup(f.Name).DefValue = f.DefValue
		}
	})
	var defaults bytes.Buffer
	shown.SetOutput(&defaults)
	shown.PrintDefaults()
	// Each flag is a line "  -name ..." and its usage's lines.
	var blocks []string
	for _, line := range strings.SplitAfter(defaults.String(), "\n") {
		if strings.HasPrefix(line, "  -") || len(blocks) == 0 {
			blocks = append(blocks, "")
		}
		blocks[len(blocks)-1] += line
	}
	n := 0
	for _, block := range blocks {
		if !strings.Contains(out.String(), "\n"+block) {
			t.Errorf("depcon test -h does not have the flag\n%sin:\n%s", block, out.String())
		}
		n++
	}
	if n != 20 {
		t.Errorf("%d flags shown of TestFlags, want 20", n)
	}
}

// TestServerTestConfig checks the configuration the server's
// depcon.test runs depcon test with, its test flags set by the
// initialization options: that of the same command line.
func TestServerTestConfig(t *testing.T) {
	dir := copyDemo(t)
	got := make(chan driver.Config, 1)
	driverRun = func(_ context.Context, cfg driver.Config) (*report.Report, error) {
		got <- cfg
		return &report.Report{}, nil
	}
	defer func() { driverRun = driver.Run }()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	serverEnd, clientEnd := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, serverEnd, Options{Budget: 5 * time.Second}) }()
	cctx, conn, server := protocol.NewClient(ctx, &recorder{}, jsonrpc2.NewStream(clientEnd), zap.NewNop())
	defer conn.Close()
	if _, err := server.Initialize(cctx, &protocol.InitializeParams{InitializationOptions: map[string]any{
		"testFlags": []string{"-iters", "7", "-sched", "pct"}, "reproduce": false}}); err != nil {
		t.Fatal(err)
	}
	if _, err := server.ExecuteCommand(cctx, &protocol.ExecuteCommandParams{Command: CommandTest,
		Arguments: []any{TestArgs{Dir: dir, Type: "Counter"}}}); err != nil {
		t.Fatal(err)
	}
	select {
	case cfg := <-got:
		if cfg.Progress == nil {
			t.Errorf("no progress writer")
		}
		line := "-iters 7 -sched pct -budget 5s -reproduce=false -type ^Counter$ ."
		sameConfig(t, cfg, commandLine(t, dir, line), line)
	case <-time.After(30 * time.Second):
		t.Fatal("depcon.test did not run depcon test")
	}
	if _, err := server.ExecuteCommand(cctx, &protocol.ExecuteCommandParams{Command: CommandTest,
		Arguments: []any{TestArgs{Dir: filepath.Join(dir, "x"), Type: "Counter", Budget: "-"}}}); err == nil {
		t.Errorf("depcon.test with a bad budget did not fail")
	}
	if err := server.Shutdown(cctx); err != nil {
		t.Fatal(err)
	}
	if err := server.Exit(cctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not end after exit")
	}
}

// TestMainTestFlags checks that depcon lsp refuses test flags depcon
// test would refuse, as a usage error.
func TestMainTestFlags(t *testing.T) {
	for _, tc := range []struct {
		flags string
		want  int
	}{{"-pairs some", 2}, {"-nosuchflag", 2}, {"-type (", 2}, {"-iters 0", 2}, {"-max-memory 8", 2}} {
		var stderr bytes.Buffer
		if got := Main([]string{"-test-flags", tc.flags}, strings.NewReader(""), &bytes.Buffer{}, &stderr); got != tc.want {
			t.Errorf("depcon lsp -test-flags %q: status %d, want %d (%s)", tc.flags, got, tc.want, stderr.String())
		} else if !strings.Contains(stderr.String(), "-test-flags") {
			t.Errorf("depcon lsp -test-flags %q: %q does not name -test-flags", tc.flags, stderr.String())
		}
	}
	// Valid flags: the server runs, and ends with its input.
	if got := Main([]string{"-test-flags", "-iters 5 -sched pct"}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}); got != 1 {
		t.Errorf("depcon lsp -test-flags with valid flags, its input empty: status %d, want 1 (no shutdown)", got)
	}
}
