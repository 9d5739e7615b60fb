package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/suite"
	"github.com/depcon/depcon/runtime/load"
)

const vetUsage = `usage: depcon vet [-json] [-c N] [-test=false] [-ANALYZER...] PACKAGES
       depcon vet -sarif [-o FILE] PACKAGES     (depcon vet -sarif -h)
       depcon vet -confirm [flags] PACKAGES     (depcon vet -confirm -h)

Vet runs depcon's analyzers over PACKAGES (and their dependencies, for
the facts they export) at once, and prints each diagnostic as go vet
does, file:line:col: message, with its related positions, on standard
error; with -json, as JSON on standard output. -ANALYZER (-lockorder)
runs only the analyzers named so; -ANALYZER=false all but those.
"depcon vet help [ANALYZER]" documents the analyzers.

A package that does not load (or imports one that does not) is named on
standard error, one line each, and the others are vetted.

Exit status: 0 when there is no diagnostic; 1 when there are some
(also when some packages did not load, or an analyzer failed); 2 on a
usage error, when packages did not load or an analyzer failed and there
is no diagnostic, or when a profile cannot be written.

Flags:
`

// vetHidden are the flags of depcon vet that go/analysis's multichecker
// had and depcon vet still accepts, but no longer documents.
var vetHidden = hiddenFlags{
	"all":    "has no effect (deprecated)",
	"source": "has no effect (deprecated)",
	"tags":   "has no effect (deprecated): set build tags with GOFLAGS=-tags=...",
	"v":      "has no effect (deprecated)",
	"fix":    "has no effect: depcon's analyzers suggest no fixes",
	"diff":   "has no effect: depcon's analyzers suggest no fixes",
	"debug":  "has no effect (deprecated)",
	"trace":  "has no effect (deprecated): use -cpuprofile",
}

// enableFlag is the flag -ANALYZER: unset, true or false.
type enableFlag struct{ set, on bool }

func (f *enableFlag) IsBoolFlag() bool { return true }
func (f *enableFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatBool(f.on)
}
func (f *enableFlag) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	f.set, f.on = true, on
	return nil
}

// vetFlags returns the flag set of depcon vet, with the analyzers'
// enabling flags and their own flags (-ANALYZER.FLAG), and the function
// that returns the analyzers selected once the flags are parsed.
func vetFlags(stderr io.Writer, opt *vetOptions) (*flag.FlagSet, func() []*analysis.Analyzer) {
	fs := flag.NewFlagSet("depcon vet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, vetUsage)
		vetHidden.printDefaults(fs)
	}
	fs.BoolVar(&opt.json, "json", false, "print the diagnostics as JSON on standard output")
	fs.IntVar(&opt.context, "c", -1, "print the line of each diagnostic with this many lines of context")
	fs.BoolVar(&opt.tests, "test", true, "also analyze the packages' test files")
	fs.StringVar(&opt.cpuprofile, "cpuprofile", "", "write a CPU profile to this `file`")
	fs.StringVar(&opt.memprofile, "memprofile", "", "write a heap profile to this `file` at the end")
	fs.Bool("sarif", false, "write the diagnostics as a SARIF 2.1.0 log (see depcon vet -sarif -h)")
	fs.Bool("confirm", false, "test each diagnostic with generated tests (see depcon vet -confirm -h)")
	for name := range vetHidden {
		switch name {
		case "tags", "debug", "trace":
			fs.String(name, "", vetHidden[name])
		default:
			fs.Bool(name, false, vetHidden[name])
		}
	}
	analyzers := suite.Analyzers()
	enabled := make([]*enableFlag, len(analyzers))
	for i, a := range analyzers {
		enabled[i] = &enableFlag{}
		fs.Var(enabled[i], a.Name, fmt.Sprintf("enable the %s analyzer", a.Name))
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	// As go vet: the analyzers enabled, or all but those disabled.
	selected := func() []*analysis.Analyzer {
		var on, notOff []*analysis.Analyzer
		for i, a := range analyzers {
			if enabled[i].set && enabled[i].on {
				on = append(on, a)
			}
			if !enabled[i].set || enabled[i].on {
				notOff = append(notOff, a)
			}
		}
		if len(on) > 0 {
			return on
		}
		return notOff
	}
	return fs, selected
}

// vetOptions are the parsed flags of depcon vet.
type vetOptions struct {
	json                   bool
	context                int
	tests                  bool
	cpuprofile, memprofile string
}

// relativePaths rewrites the positions that begin the lines of text,
// under the current directory, relative to it, as go vet prints them.
func relativePaths(text []byte) []byte {
	wd, err := os.Getwd()
	if err != nil {
		return text
	}
	prefix := []byte(wd + string(filepath.Separator))
	lines := bytes.SplitAfter(text, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimPrefix(l, prefix)
	}
	return bytes.Join(lines, nil)
}

// vetMain implements depcon vet without -sarif or -confirm: the
// analyzers over the packages, diagnostics as go vet prints them.
func vetMain(args []string, stdout, stderr io.Writer) int {
	var opt vetOptions
	fs, selected := vetFlags(stderr, &opt)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	vetHidden.warn(fs, stderr)
	patterns := packageArgs(fs)
	if patterns[0] == "help" {
		return vetHelp(patterns[1:], stdout, stderr)
	}
	if opt.tests && !flagSet(fs, "test") && testFilesUnusable(patterns, stderr) {
		opt.tests = false
	}
	if opt.context < -1 {
		fmt.Fprintf(stderr, "depcon vet: -c %d: want a number of lines, or -1 for none\n", opt.context)
		return exitError
	}
	analyzers := selected()
	if len(analyzers) == 0 {
		fmt.Fprintln(stderr, "depcon vet: every analyzer is disabled")
		return exitError
	}
	cpu, err := openOutput("cpuprofile", opt.cpuprofile, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
		return exitError
	}
	mem, err := openOutput("memprofile", opt.memprofile, stdout)
	if err != nil {
		cpu.abandon()
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
		return exitError
	}
	var cpuFile *os.File
	profiling := false
	if cpu.path == "-" {
		if err := pprof.StartCPUProfile(stdout); err != nil {
			fmt.Fprintf(stderr, "depcon vet: -cpuprofile: %v\n", err)
			mem.abandon()
			return exitError
		}
		profiling = true
	}
	if cpu.f != nil {
		cpuFile, cpu.f = cpu.f, nil
		var err error
		if fi, serr := cpuFile.Stat(); serr == nil && fi.Mode().IsRegular() {
			err = cpuFile.Truncate(0)
		}
		if err == nil {
			err = pprof.StartCPUProfile(cpuFile)
		}
		if err != nil {
			fmt.Fprintf(stderr, "depcon vet: -cpuprofile: %v\n", err)
			cpuFile.Close()
			mem.abandon()
			return exitError
		}
		profiling = true
	}
	failed := false
	finish := func() {
		if profiling {
			pprof.StopCPUProfile()
		}
		if cpuFile != nil {
			if err := cpuFile.Close(); err != nil {
				fmt.Fprintf(stderr, "depcon vet: -cpuprofile: %v\n", err)
				failed = true
			}
		}
		if err := mem.write(func(w io.Writer) error {
			runtime.GC()
			return pprof.WriteHeapProfile(w)
		}); err != nil {
			fmt.Fprintf(stderr, "depcon vet: %v\n", err)
			failed = true
		}
	}

	pkgs, notLoaded, err := loadVet(patterns, opt.tests, stderr)
	if err != nil {
		finish()
		return exitError
	}
	graph, err := checker.Analyze(analyzers, pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
		finish()
		return exitError
	}
	diags, errs := 0, 0
	for act := range graph.All() {
		if act.Err != nil {
			errs++
		} else if act.IsRoot {
			diags += len(act.Diagnostics)
		}
	}
	if opt.json {
		err = graph.PrintJSON(stdout)
	} else {
		var text bytes.Buffer
		if err = graph.PrintText(&text, opt.context); err == nil {
			_, err = stderr.Write(relativePaths(text.Bytes()))
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "depcon vet: writing the diagnostics: %v\n", err)
		failed = true
	}
	finish()
	return status(diags, len(notLoaded) > 0 || errs > 0, failed)
}

// vetHelp implements depcon vet help [ANALYZER...]: the analyzers with
// the first line of their documentation, or the whole documentation of
// those named.
func vetHelp(names []string, stdout, stderr io.Writer) int {
	analyzers := suite.Analyzers()
	if len(names) == 0 {
		fmt.Fprintln(stdout, "depcon vet runs these analyzers (depcon vet help ANALYZER for one's documentation):")
		fmt.Fprintln(stdout)
		for _, a := range analyzers {
			first, _, _ := strings.Cut(strings.TrimSpace(a.Doc), "\n")
			fmt.Fprintf(stdout, "    %-13s %s\n", a.Name, first)
		}
		return exitClean
	}
	for n, name := range names {
		k := slices.IndexFunc(analyzers, func(a *analysis.Analyzer) bool { return a.Name == name })
		if k < 0 {
			fmt.Fprintf(stderr, "depcon vet help: no analyzer %q\n", name)
			return exitError
		}
		if n > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s: %s\n", name, strings.TrimSpace(analyzers[k].Doc))
	}
	return exitClean
}

// loadVet loads the packages of depcon vet (with their test variants
// when tests is set), names those that do not load on stderr, and
// returns those that do; the error, already reported, is not nil when
// none does.
func loadVet(patterns []string, tests bool, stderr io.Writer) ([]*packages.Package, []load.Failed, error) {
	partial := load.Partial
	if tests {
		partial = load.PartialTests
	}
	pkgs, failed, err := partial("", patterns)
	reportFailed(stderr, "depcon vet", failed)
	if err != nil && len(failed) == 0 {
		fmt.Fprintf(stderr, "depcon vet: %v\n", err)
	}
	return pkgs, failed, err
}

// wantsVersion reports whether args ask for the version of depcon.
func wantsVersion(args []string) bool {
	return len(args) == 1 && (args[0] == "-version" || args[0] == "--version" || args[0] == "version")
}

// versionLine returns what depcon version prints: the module version,
// the VCS revision and time of a build from a checkout (with
// "+modified" when it had changes), and the Go version.
func versionLine() string {
	return versionOf(debug.ReadBuildInfo())
}

// versionOf returns the version line of the build information info (ok
// false when there is none).
func versionOf(info *debug.BuildInfo, ok bool) string {
	var b strings.Builder
	b.WriteString("depcon")
	if !ok {
		b.WriteString(" (no build information)")
		return b.String()
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	fmt.Fprintf(&b, " %s", version)
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		fmt.Fprintf(&b, " revision %s", rev)
		if settings["vcs.modified"] == "true" {
			b.WriteString("+modified")
		}
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " (%s)", t)
		}
	}
	fmt.Fprintf(&b, " %s %s/%s", info.GoVersion, runtime.GOOS, runtime.GOARCH)
	return b.String()
}
