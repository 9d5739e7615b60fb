package child

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// A site is where the go command builds a target: in place, with the
// added files laid over the package directory, or in a copy of the
// package's module when the package directory cannot take an overlay.
type site struct {
	dir     string   // the package directory the overlay names
	run     string   // the directory the go command runs in
	pattern string   // the package argument of go test
	env     []string // added to the environment of the go command
	// modRetry is set for a copy built as its own main module: a build
	// that fails for want of go.sum entries or requirements is retried
	// with -mod=mod.
	modRetry bool
	goflags  string // GOFLAGS to extend on a retry
}

// placeTarget decides where t is built, copying its module under shared
// when needed; the files of this build go in work. The user's tree and
// the module cache are only read.
func placeTarget(ctx context.Context, shared, work string, t Target) (*site, error) {
	if t.Dir == "" {
		return nil, fmt.Errorf("no directory for package %s", t.Path)
	}
	env, err := readGoEnv(ctx, t.From)
	if err != nil {
		return nil, fmt.Errorf("reading the go environment: %w", err)
	}
	if !needsCopy(t.Dir, env.GOMODCACHE) || t.Module == nil {
		s := &site{dir: t.Dir, run: t.Dir, pattern: "."}
		if t.Module != nil && !t.Module.Main && t.Path != "" {
			// A dependency outside the module cache (a local
			// replacement): built from the user's module, whose
			// requirements select its dependencies.
			s.run, s.pattern = t.From, t.Path
		}
		return s, nil
	}
	return copySite(ctx, shared, work, t, env)
}

// needsCopy reports whether the package directory dir cannot take an
// overlay: it lies beneath the module cache, or cannot be written (a
// read-only tree is treated like the module cache).
func needsCopy(dir, modcache string) bool {
	return beneath(dir, modcache) || !writable(dir)
}

// beneath reports whether path lies in the directory root, comparing
// the paths as given and with symbolic links resolved.
func beneath(path, root string) bool {
	if root == "" {
		return false
	}
	in := func(p, r string) bool {
		rel, err := filepath.Rel(r, p)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	if in(filepath.Clean(path), filepath.Clean(root)) {
		return true
	}
	p, err1 := filepath.EvalSymlinks(path)
	r, err2 := filepath.EvalSymlinks(root)
	return err1 == nil && err2 == nil && in(p, r)
}

// copySite copies the module of t under shared, unless an earlier build
// did, and returns the site that builds the copy: in a workspace, its
// go.work in work, with the user's main modules when there are any, so
// that dependencies resolve as in the user's build; else as a module of
// its own.
func copySite(ctx context.Context, shared, work string, t Target, env *goEnv) (*site, error) {
	m := t.Module
	if m.Dir == "" {
		return nil, fmt.Errorf("package %s: the go command gives no directory for module %s", t.Path, m.Path)
	}
	rel, err := filepath.Rel(m.Dir, t.Dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("package directory %s is not in the directory %s of module %s", t.Dir, m.Dir, m.Path)
	}
	root, goVersion, err := moduleCopy(ctx, shared, m)
	if err != nil {
		return nil, fmt.Errorf("copying module %s: %w", m.Path, err)
	}
	s := &site{dir: filepath.Join(root, rel), pattern: "."}
	s.run = s.dir
	goflags := withoutModFlag(env.GOFLAGS)
	ws, err := userWorkspace(ctx, t, env)
	if err != nil {
		return nil, err
	}
	if ws == nil || len(ws.use) == 0 {
		s.env = []string{"GOWORK=off", "GOFLAGS=" + goflags}
		s.modRetry, s.goflags = true, goflags
		return s, nil
	}
	ws.use = append(ws.use, root)
	ws.goVersions = append(ws.goVersions, goVersion)
	file := filepath.Join(work, "go.work")
	if err := ws.write(file); err != nil {
		return nil, fmt.Errorf("writing the workspace of module %s: %w", m.Path, err)
	}
	s.env = []string{"GOWORK=" + file, "GOFLAGS=" + goflags}
	return s, nil
}

// withoutModFlag returns goflags without its -mod flag, which workspace
// mode refuses and a copy must not inherit.
func withoutModFlag(goflags string) string {
	var kept []string
	for _, f := range strings.Fields(goflags) {
		if !strings.HasPrefix(f, "-mod=") && !strings.HasPrefix(f, "--mod=") {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}

// buildFailedForModules reports whether the output of a failed build
// says the module's go.mod or go.sum is incomplete.
func buildFailedForModules(out string) bool {
	for _, s := range []string{"missing go.sum entry", "updates to go.mod needed", "no required module provides",
		"go.mod file indicates replacement", "-mod=mod"} {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}
