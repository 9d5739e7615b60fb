package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/depcon/depcon/runtime/driver"
)

// Commands the server executes (workspace/executeCommand).
const (
	// CommandTest runs depcon test on one type. Its argument is a
	// TestArgs.
	CommandTest = "depcon.test"
	// CommandWriteReproducer writes the reproducer test of a violation
	// next to the package. Its argument is the violation's id (the
	// "violation" member of the diagnostic's data).
	CommandWriteReproducer = "depcon.writeReproducer"
)

// TestArgs is the argument of CommandTest, as the code lenses send it.
type TestArgs struct {
	Dir  string `json:"dir"`  // the package's directory
	Type string `json:"type"` // the type's name
	// Budget overrides the server's time budget ("5s"), when set.
	Budget string `json:"budget,omitempty"`
}

// Options configure a server.
type Options struct {
	// Budget is the time budget of depcon test for one type
	// (driver.Config.Budget); 0 for driver.DefaultBudget.
	Budget time.Duration
	// NoReproduce skips running a violation's reproducer before it is
	// reported (depcon test's -reproduce=false).
	NoReproduce bool
	// TestFlags are flags of depcon test (see driver.TestFlags) that depcon.test
	// runs with, before those Budget and NoReproduce set and -type.
	TestFlags []string
	// Log receives a line for each analysis and test run; nil for none.
	Log io.Writer
}

// Main runs depcon lsp with args (the arguments after "lsp") on stdin
// and stdout, and returns the exit status: 0 after a shutdown request
// and an exit notification, 1 when the connection ends otherwise, 2 on
// a usage error.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("depcon lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: depcon lsp [flags]

The lsp command serves depcon's diagnostics, code lenses and commands to an editor
through the Language Server Protocol on standard input and output. Run it
next to gopls: docs/EDITORS.md has editor configurations.

Flags:
`)
		fs.PrintDefaults()
	}
	var opts Options
	fs.DurationVar(&opts.Budget, "budget", 0, "time budget of depcon test for one type (default that of depcon test)")
	reproduce := fs.Bool("reproduce", true, "run each violation's reproducer before reporting it")
	verbose := fs.Bool("v", false, "log analyses and test runs to standard error")
	testFlags := fs.String("test-flags", "", "flags of depcon test the editor's test of a type runs with, "+
		"separated by spaces (\"-iters 50 -sched pct\"); -budget and -reproduce=false follow them")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	opts.NoReproduce = !*reproduce
	opts.TestFlags = strings.Fields(*testFlags)
	if _, err := driver.ParseTestFlags(append(opts.TestFlags[:len(opts.TestFlags):len(opts.TestFlags)], ".")); err != nil {
		fmt.Fprintf(stderr, "depcon lsp: -test-flags: %v\n", err)
		return 2
	}
	if *verbose {
		opts.Log = stderr
	}
	err := Serve(context.Background(), stdio{stdin, stdout}, opts)
	if err != nil {
		fmt.Fprintf(stderr, "depcon lsp: %v\n", err)
		return 1
	}
	return 0
}

// stdio is standard input and output as one connection.
type stdio struct {
	io.Reader
	io.Writer
}

func (s stdio) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		c.Close()
	}
	if c, ok := s.Writer.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// ErrNoShutdown is returned by Serve when the connection ended without a
// shutdown request followed by an exit notification.
var ErrNoShutdown = errors.New("the connection ended without shutdown and exit")

// Serve serves one client on conn until the client sends exit or the
// connection ends, and returns nil when the client asked for a shutdown
// before it exited.
func Serve(ctx context.Context, conn io.ReadWriteCloser, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newServer(ctx, opts)
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(conn))
	s.client = protocol.ClientDispatcher(s.conn, zap.NewNop())
	s.conn.Go(ctx, cancelHandler(jsonrpc2.AsyncHandler(s.handle)))
	select {
	case <-s.conn.Done():
	case <-s.exited:
		// The connection's reader is not waited for: closing standard
		// input does not end a read of it in progress, which may last
		// until the client closes its end. Messages it reads from now on
		// are ignored (handle).
		s.conn.Close()
	}
	cancel()
	s.wg.Wait() // background analyses and test runs
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exitOK {
		return nil
	}
	return ErrNoShutdown
}

// A Server is the state of one client's session.
type Server struct {
	opts   Options
	ctx    context.Context // the session's: canceled when it ends
	conn   jsonrpc2.Conn
	client protocol.Client
	exited chan struct{} // closed by the exit notification
	wg     sync.WaitGroup

	// publishMu serialises publications, so that the last one sent is
	// computed from the latest state.
	publishMu sync.Mutex

	mu         sync.Mutex
	progress   bool                 // the client supports server-created progress
	shutdown   bool                 // a shutdown request was received
	exitOK     bool                 // exit came after shutdown
	pkgs       map[string]*pkgState // by directory
	runs       map[string]context.CancelFunc
	violations map[string]*violationRec // by id
	nextID     int
	exitOnce   sync.Once
	logger     *log.Logger
}

func newServer(ctx context.Context, opts Options) *Server {
	s := &Server{opts: opts, ctx: ctx, exited: make(chan struct{}),
		pkgs: map[string]*pkgState{}, runs: map[string]context.CancelFunc{}, violations: map[string]*violationRec{}}
	if opts.Log != nil {
		s.logger = log.New(opts.Log, "depcon lsp: ", log.Ltime)
	}
	return s
}

func (s *Server) logf(format string, args ...any) {
	if s.logger != nil {
		s.logger.Printf(format, args...)
	}
}

// cancelHandler handles $/cancelRequest: it cancels the context of the
// request named.
func cancelHandler(h jsonrpc2.Handler) jsonrpc2.Handler {
	h, cancel := jsonrpc2.CancelHandler(h)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() != protocol.MethodCancelRequest {
			return h(ctx, reply, req)
		}
		var params struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(req.Params(), &params); err == nil {
			var n int32
			var str string
			if json.Unmarshal(params.ID, &n) == nil {
				cancel(jsonrpc2.NewNumberID(n))
			} else if json.Unmarshal(params.ID, &str) == nil {
				cancel(jsonrpc2.NewStringID(str))
			}
		}
		return reply(ctx, nil, nil)
	}
}

// handle dispatches a request or a notification. It returns an error
// only when the connection must end.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	select {
	case <-s.exited:
		// The session is over: Serve may be waiting for the background
		// work, which nothing may start any more. (The messages after
		// exit are handled after it, by jsonrpc2.AsyncHandler.)
		return nil
	default:
	}
	_, isCall := req.(*jsonrpc2.Call)
	s.mu.Lock()
	shutdown := s.shutdown
	s.mu.Unlock()
	if shutdown && isCall && req.Method() != protocol.MethodShutdown {
		return reply(ctx, nil, fmt.Errorf("%w: the server is shutting down", jsonrpc2.ErrInvalidRequest))
	}
	decode := func(v any) bool {
		if err := json.Unmarshal(req.Params(), v); err != nil {
			_ = reply(ctx, nil, fmt.Errorf("%w: %w", jsonrpc2.ErrInvalidParams, err))
			return false
		}
		return true
	}
	switch req.Method() {
	case protocol.MethodInitialize:
		var params protocol.InitializeParams
		if !decode(&params) {
			return nil
		}
		return reply(ctx, s.initialize(&params), nil)
	case protocol.MethodInitialized:
		return reply(ctx, nil, nil)
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		for _, cancel := range s.runs {
			cancel()
		}
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case protocol.MethodExit:
		s.mu.Lock()
		s.exitOK = s.shutdown
		s.mu.Unlock()
		s.exitOnce.Do(func() { close(s.exited) })
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidOpen:
		var params protocol.DidOpenTextDocumentParams
		if decode(&params) {
			s.documentEvent(params.TextDocument.URI)
		}
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidSave:
		var params protocol.DidSaveTextDocumentParams
		if decode(&params) {
			s.documentEvent(params.TextDocument.URI)
		}
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentCodeLens:
		var params protocol.CodeLensParams
		if !decode(&params) {
			return nil
		}
		// Lenses wait for the package's running analysis, if any (and the
		// requests after them for the lenses, in order).
		return reply(ctx, s.codeLens(ctx, params.TextDocument.URI), nil)
	case protocol.MethodTextDocumentCodeAction:
		var params protocol.CodeActionParams
		if !decode(&params) {
			return nil
		}
		return reply(ctx, s.codeActions(&params), nil)
	case protocol.MethodWorkspaceExecuteCommand:
		var params protocol.ExecuteCommandParams
		if !decode(&params) {
			return nil
		}
		res, err := s.executeCommand(&params)
		return reply(ctx, res, err)
	case protocol.MethodWorkDoneProgressCancel:
		var params protocol.WorkDoneProgressCancelParams
		if decode(&params) {
			s.mu.Lock()
			cancel := s.runs[params.Token.String()]
			s.mu.Unlock()
			if cancel != nil {
				cancel()
			}
		}
		return reply(ctx, nil, nil)
	}
	if isCall {
		return reply(ctx, nil, fmt.Errorf("%q: %w", req.Method(), jsonrpc2.ErrMethodNotFound))
	}
	return reply(ctx, nil, nil) // other notifications (didChange, didClose…) need nothing
}

// initialize answers the initialize request.
func (s *Server) initialize(params *protocol.InitializeParams) *protocol.InitializeResult {
	s.mu.Lock()
	if w := params.Capabilities.Window; w != nil {
		s.progress = w.WorkDoneProgress
	}
	s.mu.Unlock()
	if opts, ok := params.InitializationOptions.(map[string]any); ok {
		if b, ok := opts["budget"].(string); ok {
			if d, err := time.ParseDuration(b); err == nil {
				s.opts.Budget = d
			}
		}
		if r, ok := opts["reproduce"].(bool); ok {
			s.opts.NoReproduce = !r
		}
		if fl, ok := opts["testFlags"].([]any); ok {
			s.opts.TestFlags = nil
			for _, f := range fl {
				s.opts.TestFlags = append(s.opts.TestFlags, fmt.Sprint(f))
			}
		}
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindNone,
				Save:      &protocol.SaveOptions{},
			},
			CodeLensProvider: &protocol.CodeLensOptions{},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix},
			},
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{
				Commands: []string{CommandTest, CommandWriteReproducer},
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "depcon"},
	}
}

// documentEvent analyses the package of a document opened or saved, in
// the background, and publishes its diagnostics.
func (s *Server) documentEvent(u protocol.DocumentURI) {
	path := uriPath(u)
	if path == "" || filepath.Ext(path) != ".go" {
		return
	}
	s.pkg(filepath.Dir(path)).refresh(s)
}

// pkg returns the state of the package of dir, creating it.
func (s *Server) pkg(dir string) *pkgState {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pkgs[dir]
	if p == nil {
		p = &pkgState{dir: dir, tests: map[string]*typeTest{}, published: map[protocol.DocumentURI]bool{}}
		s.pkgs[dir] = p
	}
	return p
}

// goBackground runs f in the background, as part of the session.
func (s *Server) goBackground(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// showMessage shows a message to the user.
func (s *Server) showMessage(typ protocol.MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.logf("%s", msg)
	_ = s.client.ShowMessage(s.ctx, &protocol.ShowMessageParams{Type: typ, Message: msg})
}

// logMessage writes a message to the client's log.
func (s *Server) logMessage(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.logf("%s", msg)
	_ = s.client.LogMessage(s.ctx, &protocol.LogMessageParams{Type: protocol.MessageTypeLog, Message: msg})
}
