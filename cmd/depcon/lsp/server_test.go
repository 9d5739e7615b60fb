package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// copyDemo copies the testdata module to a temporary directory (the
// server writes reproducers into it) and returns the copy's path.
func copyDemo(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", "demo")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Resolve symbolic links: go/packages reports resolved file names.
	if real, err := filepath.EvalSymlinks(dst); err == nil {
		dst = real
	}
	return dst
}

// A recorder is the LSP client of the tests: it records what the server
// sends.
type recorder struct {
	mu       sync.Mutex
	diags    []protocol.PublishDiagnosticsParams
	progress []map[string]any // the values of $/progress
	created  []string         // the tokens the server created
	messages []string
}

var _ protocol.Client = (*recorder)(nil)

func (r *recorder) Progress(_ context.Context, p *protocol.ProgressParams) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := p.Value.(map[string]any); ok {
		v["token"] = p.Token.String()
		r.progress = append(r.progress, v)
	}
	return nil
}

func (r *recorder) WorkDoneProgressCreate(_ context.Context, p *protocol.WorkDoneProgressCreateParams) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.created = append(r.created, p.Token.String())
	return nil
}

func (r *recorder) LogMessage(_ context.Context, p *protocol.LogMessageParams) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.messages = append(r.messages, p.Message)
	return nil
}

func (r *recorder) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = append(r.diags, *p)
	return nil
}

func (r *recorder) ShowMessage(_ context.Context, p *protocol.ShowMessageParams) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.messages = append(r.messages, p.Message)
	return nil
}

func (r *recorder) ShowMessageRequest(context.Context, *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	return nil, nil
}
func (r *recorder) Telemetry(context.Context, any) error { return nil }
func (r *recorder) RegisterCapability(context.Context, *protocol.RegistrationParams) error {
	return nil
}
func (r *recorder) UnregisterCapability(context.Context, *protocol.UnregistrationParams) error {
	return nil
}
func (r *recorder) ApplyEdit(context.Context, *protocol.ApplyWorkspaceEditParams) (bool, error) {
	return false, nil
}
func (r *recorder) Configuration(context.Context, *protocol.ConfigurationParams) ([]any, error) {
	return nil, nil
}
func (r *recorder) WorkspaceFolders(context.Context) ([]protocol.WorkspaceFolder, error) {
	return nil, nil
}

// waitDiags waits until the server published, after the first n
// publications, diagnostics for u that satisfy ok, and returns them and
// the number of publications seen.
func (r *recorder) waitDiags(t *testing.T, n int, u protocol.DocumentURI, timeout time.Duration,
	ok func([]protocol.Diagnostic) bool) ([]protocol.Diagnostic, int) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		r.mu.Lock()
		for i := n; i < len(r.diags); i++ {
			if r.diags[i].URI == u && ok(r.diags[i].Diagnostics) {
				ds := r.diags[i].Diagnostics
				r.mu.Unlock()
				return ds, i + 1
			}
		}
		seen := len(r.diags)
		var last []protocol.Diagnostic
		for i := len(r.diags) - 1; i >= 0; i-- {
			if r.diags[i].URI == u {
				last = r.diags[i].Diagnostics
				break
			}
		}
		msgs := strings.Join(r.messages, "\n")
		r.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no expected diagnostics for %s in %v (%d publications); last: %+v\nmessages:\n%s", u, timeout, seen, last, msgs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitProgress waits for a $/progress value of the kind after the
// first n, of the token unless it is "", and returns its token and
// message.
func (r *recorder) waitProgress(t *testing.T, n int, kind, token string) string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		r.mu.Lock()
		for _, v := range r.progress[min(n, len(r.progress)):] {
			if v["kind"] == kind && (token == "" || v["token"] == token) {
				r.mu.Unlock()
				if kind == "end" {
					return fmt.Sprint(v["message"])
				}
				return fmt.Sprint(v["token"])
			}
		}
		all := fmt.Sprint(r.progress)
		r.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no progress %q of %q: %s", kind, token, all)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// find returns the first diagnostic with the code and a message that
// contains text, or nil.
func find(ds []protocol.Diagnostic, code, text string) *protocol.Diagnostic {
	for i, d := range ds {
		if fmt.Sprint(d.Code) == code && strings.Contains(d.Message, text) {
			return &ds[i]
		}
	}
	return nil
}

// lineOf returns the 0-based line of the first line of file that
// contains text.
func lineOf(t *testing.T, file, text string) uint32 {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, text) {
			return uint32(i)
		}
	}
	t.Fatalf("%s has no line with %q", file, text)
	return 0
}

// binary is the depcon command built for the tests, by TestMain.
var binary string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "depcon-lsp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "depcon")
	// Built without -race: the analyses of the server run several times
	// faster, and the children of depcon test are built with -race anyway.
	if out, err := exec.Command("go", "build", "-o", binary, "github.com/depcon/depcon/cmd/depcon").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building depcon: %v\n%s", err, out)
		return 2
	}
	return m.Run()
}

// pipes are a child's standard input and output as one connection.
type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

// TestServer drives depcon lsp, the built command, with the protocol
// library's client over its standard input and output: diagnostics on
// open and save, code lenses, a test run through depcon.test with
// progress, the confirmation of a static diagnostic, the reproducer code
// action, shutdown and exit.
func TestServer(t *testing.T) {
	start := time.Now()
	dir := copyDemo(t)
	registry, counter := filepath.Join(dir, "registry.go"), filepath.Join(dir, "counter.go")
	regURI, cntURI := fileURI(registry), fileURI(counter)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "lsp", "-budget", "5s", "-v")
	var stderr lockedBuffer // written by the command's copier while a failing test logs it
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { t.Logf("depcon lsp -v:\n%s", stderr.String()) }()
	rec := &recorder{}
	ctx, conn, server := protocol.NewClient(ctx, rec, jsonrpc2.NewStream(pipes{stdout, stdin}), zap.NewNop())
	defer conn.Close()

	init, err := server.Initialize(ctx, &protocol.InitializeParams{
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(fileURI(dir)), Name: filepath.Base(dir)}},
		Capabilities: protocol.ClientCapabilities{
			Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true},
			TextDocument: &protocol.TextDocumentClientCapabilities{
				PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{RelatedInformation: true},
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	caps := init.Capabilities
	if caps.CodeLensProvider == nil || caps.ExecuteCommandProvider == nil ||
		strings.Join(caps.ExecuteCommandProvider.Commands, " ") != CommandTest+" "+CommandWriteReproducer {
		t.Fatalf("capabilities: %+v", caps)
	}
	if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}

	// didOpen: the self-deadlock of Registry.Put, with the lock's site.
	src, _ := os.ReadFile(registry)
	if err := server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: regURI, LanguageID: "go", Version: 1, Text: string(src)}}); err != nil {
		t.Fatal(err)
	}
	selfDeadlock := func(ds []protocol.Diagnostic) bool { return find(ds, "selfdeadlock", "") != nil }
	ds, seen := rec.waitDiags(t, 0, regURI, time.Minute, selfDeadlock)
	d := find(ds, "selfdeadlock", "")
	if d.Source != "depcon" || d.CodeDescription == nil ||
		d.CodeDescription.Href != "https://pkg.go.dev/github.com/depcon/depcon/analyzers/selfdeadlock" {
		t.Errorf("diagnostic source %q, code description %+v", d.Source, d.CodeDescription)
	}
	if want := lineOf(t, registry, "return r.Len()"); d.Range.Start.Line != want || d.Range.End.Character <= d.Range.Start.Character {
		t.Errorf("diagnostic at %+v, want on line %d", d.Range, want)
	}
	if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Location.URI != regURI ||
		d.RelatedInformation[0].Location.Range.Start.Line != lineOf(t, registry, "func (r *Registry) Put")+1 {
		t.Errorf("related information: %+v", d.RelatedInformation)
	}
	t.Logf("diagnostics after didOpen: %.1fs", time.Since(start).Seconds())

	// didSave: published again (from the last analysis: nothing changed).
	if err := server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: regURI}}); err != nil {
		t.Fatal(err)
	}
	_, seen = rec.waitDiags(t, seen, regURI, 30*time.Second, selfDeadlock)

	// Code lenses: Counter has one dependent pair, Get ~ Inc.
	lenses, err := server.CodeLens(ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: cntURI}})
	if err != nil {
		t.Fatal(err)
	}
	if len(lenses) != 1 || lenses[0].Command == nil || lenses[0].Command.Title != "depcon: 1 dependent pair · test" ||
		lenses[0].Command.Command != CommandTest || lenses[0].Range.Start.Line != lineOf(t, counter, "type Counter struct") {
		t.Fatalf("code lenses of counter.go: %+v", lenses)
	}

	// The unguarded read in Get, before any test.
	ds, _ = rec.waitDiags(t, 0, cntURI, 30*time.Second, func(ds []protocol.Diagnostic) bool { return find(ds, "unguarded", "") != nil })
	if d := find(ds, "unguarded", ""); strings.Contains(d.Message, confirmedSuffix) {
		t.Errorf("confirmed before any test: %s", d.Message)
	}

	// depcon.test on Counter: a race of Get and Inc, on Get's declaration.
	testStart := time.Now()
	if _, err := server.ExecuteCommand(ctx, &protocol.ExecuteCommandParams{
		Command: lenses[0].Command.Command, Arguments: lenses[0].Command.Arguments}); err != nil {
		t.Fatal(err)
	}
	race := func(ds []protocol.Diagnostic) bool { return find(ds, "race", "Get ∥ Inc") != nil }
	ds, _ = rec.waitDiags(t, seen, cntURI, 2*time.Minute, race)
	t.Logf("depcon.test: violation published after %.1fs", time.Since(testStart).Seconds())
	v := find(ds, "race", "Get ∥ Inc")
	if v.Source != "depcon" || !strings.Contains(v.Message, "seed 1") || v.Range.Start.Line != lineOf(t, counter, "func (c *Counter) Get") {
		t.Errorf("violation diagnostic: %+v", v)
	}
	if len(v.RelatedInformation) == 0 || v.RelatedInformation[0].Location.Range.Start.Line != lineOf(t, counter, "func (c *Counter) Inc") {
		t.Errorf("violation's related information: %+v", v.RelatedInformation)
	}
	if u := find(ds, "unguarded", ""); u == nil || !strings.Contains(u.Message, confirmedSuffix) {
		t.Errorf("the unguarded read is not confirmed: %+v", u)
	}
	rec.mu.Lock()
	progress, created := rec.progress, rec.created
	rec.mu.Unlock()
	if len(created) != 1 || len(progress) < 2 || progress[0]["kind"] != "begin" || progress[len(progress)-1]["kind"] != "end" ||
		progress[0]["token"] != created[0] || !strings.Contains(fmt.Sprint(progress[len(progress)-1]["message"]), "race") {
		t.Errorf("progress: created %v, values %v", created, progress)
	}

	// The code action writes the reproducer next to the package.
	actions, err := server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: cntURI},
		Range: v.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*v}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 || actions[0].Title != "write reproducer test" || actions[0].Command == nil {
		t.Fatalf("code actions: %+v", actions)
	}
	res, err := server.ExecuteCommand(ctx, &protocol.ExecuteCommandParams{Command: actions[0].Command.Command,
		Arguments: actions[0].Command.Arguments})
	if err != nil {
		t.Fatal(err)
	}
	path, _ := res.(string)
	repro, err := os.ReadFile(path)
	if err != nil || filepath.Dir(path) != dir || !strings.HasSuffix(path, "_test.go") || !strings.Contains(string(repro), "package demo") {
		t.Errorf("reproducer %q (%v):\n%s", path, err, repro)
	}
	if _, err := server.ExecuteCommand(ctx, &protocol.ExecuteCommandParams{Command: actions[0].Command.Command,
		Arguments: actions[0].Command.Arguments}); err == nil {
		t.Errorf("the reproducer was written twice")
	}

	// An edit moves the violation with its method.
	data, err := os.ReadFile(counter)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(counter, bytes.Replace(data, []byte("// Get returns"), []byte("\n\n// Get returns"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: cntURI}}); err != nil {
		t.Fatal(err)
	}
	getLine := lineOf(t, counter, "func (c *Counter) Get")
	rec.waitDiags(t, 0, cntURI, time.Minute, func(ds []protocol.Diagnostic) bool {
		d := find(ds, "race", "Get ∥ Inc")
		return d != nil && d.Range.Start.Line == getLine
	})

	// A test run canceled through its progress token ends at once.
	regLenses, err := server.CodeLens(ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: regURI}})
	if err != nil || len(regLenses) != 1 || regLenses[0].Command == nil {
		t.Fatalf("code lenses of registry.go: %+v, %v", regLenses, err)
	}
	cancelStart := time.Now()
	if _, err := server.ExecuteCommand(ctx, &protocol.ExecuteCommandParams{
		Command: regLenses[0].Command.Command, Arguments: regLenses[0].Command.Arguments}); err != nil {
		t.Fatal(err)
	}
	token := rec.waitProgress(t, len(progress), "begin", "")
	if err := server.WorkDoneProgressCancel(ctx, &protocol.WorkDoneProgressCancelParams{Token: *protocol.NewProgressToken(token)}); err != nil {
		t.Fatal(err)
	}
	end := rec.waitProgress(t, len(progress), "end", token)
	t.Logf("canceled run ended after %.1fs: %s", time.Since(cancelStart).Seconds(), end)
	if end != "canceled" {
		t.Errorf("the canceled run ended with %q", end)
	}

	if err := server.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := server.Exit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("depcon lsp after exit: %v", err)
	}
	t.Logf("total %.1fs", time.Since(start).Seconds())
}

// TestNoShutdown checks that a connection that ends without shutdown
// and exit is an error.
func TestNoShutdown(t *testing.T) {
	serverEnd, clientEnd := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- Serve(context.Background(), serverEnd, Options{}) }()
	clientEnd.Close()
	select {
	case err := <-served:
		if !errors.Is(err, ErrNoShutdown) {
			t.Errorf("Serve = %v, want ErrNoShutdown", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not end with its connection")
	}
}

// TestInProcess serves a client over in-memory pipes, under the race
// detector when the tests run with -race: a package that does not load
// is reported in the log and has no lenses, a command with bad
// arguments fails, and an exit after shutdown ends Serve without error.
func TestInProcess(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.go")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/broken\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte("package broken\n\nfunc F() int { return undefined }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	serverEnd, clientEnd := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, serverEnd, Options{}) }()
	rec := &recorder{}
	cctx, conn, server := protocol.NewClient(ctx, rec, jsonrpc2.NewStream(clientEnd), zap.NewNop())
	defer conn.Close()
	if _, err := server.Initialize(cctx, &protocol.InitializeParams{}); err != nil {
		t.Fatal(err)
	}
	u := fileURI(broken)
	for range 2 { // the second open comes while the first analysis may run
		if err := server.DidOpen(cctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "go"}}); err != nil {
			t.Fatal(err)
		}
	}
	lenses, err := server.CodeLens(cctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil || len(lenses) != 0 {
		t.Errorf("code lenses of a broken package: %+v, %v", lenses, err)
	}
	// The client handles notifications apart from responses: wait.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		rec.mu.Lock()
		msgs := strings.Join(rec.messages, "\n")
		rec.mu.Unlock()
		if strings.Contains(msgs, "undefined") {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("the load error is not in the log: %q", msgs)
			break
		}
	}
	if _, err := server.ExecuteCommand(cctx, &protocol.ExecuteCommandParams{Command: CommandTest, Arguments: []any{"nonsense"}}); err == nil {
		t.Errorf("depcon.test with a bad argument did not fail")
	}
	if _, err := server.ExecuteCommand(cctx, &protocol.ExecuteCommandParams{Command: CommandWriteReproducer, Arguments: []any{"v99"}}); err == nil {
		t.Errorf("writing the reproducer of an unknown violation did not fail")
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

// A lockedBuffer is a bytes.Buffer safe for one writer and one reader.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
