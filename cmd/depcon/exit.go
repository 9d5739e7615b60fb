package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/depcon/depcon/runtime/load"
)

// Exit statuses of every command (see the package documentation).
//
// go vet and staticcheck exit 1 on findings, golangci-lint 1 on issues
// (and 3 when it fails), so 1 is what CI scripts read as "findings", and
// only that; 2 is the flag package's status for a usage error, and every
// other failure (packages that do not load, an output that cannot be
// written, no isolation) joins it; a signal gives 128 plus its number, as
// a shell reports it. go/analysis's multichecker exits 3 on diagnostics:
// depcon vet does not use its status.
const (
	exitClean     = 0
	exitFindings  = 1
	exitError     = 2
	exitInterrupt = 128 + int(syscall.SIGINT)  // 130
	exitTerminate = 128 + int(syscall.SIGTERM) // 143
)

// status returns the exit status of a run that found findings things,
// and failed to load or analyze some packages (partial) or to write an
// output (outputFailed): findings decide unless an output is missing.
func status(findings int, partial, outputFailed bool) int {
	switch {
	case outputFailed:
		return exitError
	case findings > 0:
		return exitFindings
	case partial:
		return exitError
	}
	return exitClean
}

// signalStatus returns the exit status of a run ended by sig.
func signalStatus(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitTerminate
	}
	return exitInterrupt
}

// signalName returns "SIGINT" or "SIGTERM" for sig.
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// reportFailed prints one line per package that did not load.
func reportFailed(stderr io.Writer, prefix string, failed []load.Failed) {
	for _, f := range failed {
		fmt.Fprintf(stderr, "%s: %s\n", prefix, f)
	}
}

// plural returns "1 pair" or "N pairs" (n and the noun, with an s unless
// n is 1).
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// hiddenFlags are the flags help does not list: deprecated, or with no
// effect. Each maps to the note printed when one is used.
type hiddenFlags map[string]string

// printDefaults prints the defaults of the flags of fs, but the hidden
// ones, as fs.PrintDefaults does.
func (h hiddenFlags) printDefaults(fs *flag.FlagSet) {
	shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	shown.SetOutput(fs.Output())
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := h[f.Name]; ok {
			return
		}
		shown.Var(f.Value, f.Name, f.Usage)
		shown.Lookup(f.Name).DefValue = f.DefValue
	})
	shown.PrintDefaults()
}

// warn prints, for each hidden flag set on the command line, its note.
func (h hiddenFlags) warn(fs *flag.FlagSet, stderr io.Writer) {
	fs.Visit(func(f *flag.Flag) {
		if note, ok := h[f.Name]; ok {
			fmt.Fprintf(stderr, "%s: -%s %s\n", fs.Name(), f.Name, note)
		}
	})
}

// parseFlags parses args with fs and returns the exit status when the
// command should end there: 0 after -h, 2 on a usage error (the flag set
// printed the message), -1 otherwise.
func parseFlags(fs *flag.FlagSet, args []string) int {
	if !slices.ContainsFunc(args, isHelpFlag) {
		// A bad flag is named, with where the usage is, not followed by
		// the whole of it.
		full := fs.Usage
		defer func() { fs.Usage = full }()
		fs.Usage = func() { fmt.Fprintf(fs.Output(), "run '%s -h' for its usage\n", fs.Name()) }
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitClean
		}
		return exitError
	}
	return -1
}

// packageArgs returns the packages fs was given, or "." (the package in
// the current directory) when it was given none, as go vet does.
func packageArgs(fs *flag.FlagSet) []string {
	if fs.NArg() == 0 {
		return []string{"."}
	}
	return fs.Args()
}

// isHelpFlag reports whether arg asks for the usage (-h, -help).
func isHelpFlag(arg string) bool {
	switch strings.TrimLeft(arg, "-") {
	case "h", "help":
		return strings.HasPrefix(arg, "-")
	}
	return false
}

// An output is a file a flag names, opened before the run, so that a
// path that cannot be written fails the command before any work; it is
// written at the end. "-" is standard output.
type output struct {
	flag, path string
	f          *os.File
	created    bool // the file did not exist: remove it when abandoned
	stdout     io.Writer
}

// openOutput opens the file path of the flag name for writing, creating
// it but leaving what it holds until it is written; "" is no output.
func openOutput(name, path string, stdout io.Writer) (*output, error) {
	o := &output{flag: name, path: path, stdout: stdout}
	if path == "" || path == "-" {
		return o, nil
	}
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("-%s: %w", name, err)
	}
	o.f, o.created = f, errors.Is(statErr, os.ErrNotExist)
	return o, nil
}

// write replaces the contents of the output with what fn writes, and
// closes it.
func (o *output) write(fn func(io.Writer) error) error {
	if o == nil || o.path == "" {
		return nil
	}
	if o.f == nil {
		return fn(o.stdout)
	}
	f := o.f
	o.f = nil
	var err error
	if fi, serr := f.Stat(); serr == nil && fi.Mode().IsRegular() {
		err = f.Truncate(0) // not a device: /dev/stdout
	}
	if err == nil {
		err = fn(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("-%s: writing %s: %w", o.flag, o.path, err)
	}
	return nil
}

// abandon closes an output that was not written, and removes it when it
// was created by openOutput.
func (o *output) abandon() {
	if o == nil || o.f == nil {
		return
	}
	o.f.Close()
	o.f = nil
	if o.created {
		os.Remove(o.path)
	}
}

// checkOutputDir checks that the directory dir, of the flag name, can be
// written (creating it when it does not exist, as the command will), and
// leaves no trace of the check.
func checkOutputDir(name, dir string) error {
	if dir == "" {
		return nil
	}
	// The first ancestor that does not exist, removed after the check.
	var made string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("-%s: %w", name, err)
		}
		made = d
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-%s: %w", name, err)
	}
	if made != "" {
		defer os.RemoveAll(made)
	}
	f, err := os.CreateTemp(dir, ".depcon-check-*")
	if err != nil {
		return fmt.Errorf("-%s: %w", name, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// printErr prints err on stderr, each of its lines after prefix: the
// errors.Join of a driver run's errors (a package that did not load or
// build each) is one per line.
func printErr(stderr io.Writer, prefix string, err error) {
	for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		fmt.Fprintf(stderr, "%s: %s\n", prefix, line)
	}
}

// onSignal cancels ctx with cancel at the first SIGINT or SIGTERM (a
// second one then ends the process at once), with the cause
// "interrupted (SIGINT)"; the function it returns gives the signal
// caught, or nil.
func onSignal(ctx context.Context, cancel context.CancelCauseFunc) func() os.Signal {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var caught atomic.Value
	go func() {
		defer signal.Stop(sigs)
		select {
		case sig := <-sigs:
			caught.Store(sig)
			cancel(fmt.Errorf("interrupted (%s)", signalName(sig)))
		case <-ctx.Done():
		}
	}()
	return func() os.Signal {
		sig, _ := caught.Load().(os.Signal)
		return sig
	}
}
