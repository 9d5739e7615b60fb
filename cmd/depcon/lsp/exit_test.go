package lsp

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// exitPromptly bounds the time the server may take to end after the exit
// notification.
const exitPromptly = 10 * time.Second

// keepOpen is the client's end of the server's input: the client's
// connection, which closes it when the server's output ends, leaves it
// open, as an editor may until the server has exited.
type keepOpen struct{ io.Writer }

func (keepOpen) Close() error { return nil }

// endSession initializes the server, sends shutdown when asked, then
// exit, and leaves the connection open.
func endSession(t *testing.T, ctx context.Context, server protocol.Server, shutdown bool) {
	t.Helper()
	if _, err := server.Initialize(ctx, &protocol.InitializeParams{}); err != nil {
		t.Fatal(err)
	}
	if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	if shutdown {
		if err := server.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := server.Exit(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestMainExitsOnExit runs Main on an input it cannot close, as
// standard input is (a read in progress does not end when it is
// closed): Main returns at the exit notification, with 0 after a
// shutdown request and 1 without, while the client keeps its end open.
func TestMainExitsOnExit(t *testing.T) {
	for _, tc := range []struct {
		name     string
		shutdown bool
		want     int
	}{{"after shutdown", true, 0}, {"without shutdown", false, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			inR, inW := io.Pipe()   // the server's standard input
			outR, outW := io.Pipe() // its standard output
			defer inW.Close()       // only when the test ends
			status := make(chan int, 1)
			go func() {
				// struct{io.Reader} hides the pipe's Close from Main.
				status <- Main(nil, struct{ io.Reader }{inR}, outW, io.Discard)
			}()
			cctx, conn, server := protocol.NewClient(ctx, &recorder{}, jsonrpc2.NewStream(pipes{outR, keepOpen{inW}}), zap.NewNop())
			defer conn.Close()
			endSession(t, cctx, server, tc.shutdown)
			select {
			case got := <-status:
				if got != tc.want {
					t.Errorf("Main returned %d after exit, want %d", got, tc.want)
				}
			case <-time.After(exitPromptly):
				t.Fatalf("Main did not return within %v of exit, its input still open", exitPromptly)
			}
		})
	}
}

// TestCommandExitsOnExit runs depcon lsp, the built command: it ends
// at the exit notification, with status 0 after a shutdown request and
// 1 without, while its standard input is still open.
func TestCommandExitsOnExit(t *testing.T) {
	for _, tc := range []struct {
		name     string
		shutdown bool
		want     int
	}{{"after shutdown", true, 0}, {"without shutdown", false, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.Command(binary, "lsp")
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
			defer stdin.Close() // only when the test ends
			cctx, conn, server := protocol.NewClient(ctx, &recorder{}, jsonrpc2.NewStream(pipes{stdout, keepOpen{stdin}}), zap.NewNop())
			defer conn.Close()
			endSession(t, cctx, server, tc.shutdown)
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			select {
			case err := <-waited:
				got := 0
				var exit *exec.ExitError
				if errors.As(err, &exit) {
					got = exit.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Errorf("depcon lsp exited with status %d after exit, want %d", got, tc.want)
				}
			case <-time.After(exitPromptly):
				if err := cmd.Process.Kill(); err != nil {
					t.Log(err)
				}
				if err := <-waited; err != nil {
					t.Log(err)
				}
				t.Fatalf("depcon lsp did not exit within %v of exit, its standard input still open", exitPromptly)
			}
		})
	}
}
