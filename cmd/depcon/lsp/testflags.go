package lsp

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/driver"
)

// testCommandLine returns the arguments of depcon test that test the
// type name of the package of the current directory as the editor's
// depcon.test does: the flags of opts.TestFlags, then -budget when
// budget is set (the server's budget or the command's) and
// -reproduce=false when opts.NoReproduce is, then -type ^name$ and
// the package ".".
func testCommandLine(opts Options, name string, budget time.Duration) []string {
	args := append([]string(nil), opts.TestFlags...)
	if budget > 0 {
		args = append(args, "-budget", budget.String())
	}
	if opts.NoReproduce {
		args = append(args, "-reproduce=false")
	}
	return append(args, "-type", "^"+regexp.QuoteMeta(name)+"$", ".")
}

// testConfig returns the configuration of the editor's depcon.test of
// the type name of the package in dir: that of depcon test with the
// arguments testCommandLine returns, run in dir (a relative -o is
// relative to dir).
func testConfig(opts Options, dir, name string, budget time.Duration) (driver.Config, error) {
	cfg, err := driver.ParseTestFlags(testCommandLine(opts, name, budget))
	if err != nil {
		return driver.Config{}, fmt.Errorf("depcon test %s: %w", strings.Join(testCommandLine(opts, name, budget), " "), err)
	}
	cfg.Dir = dir
	if cfg.Out != "" && !filepath.IsAbs(cfg.Out) {
		cfg.Out = filepath.Join(dir, cfg.Out)
	}
	return cfg, nil
}
