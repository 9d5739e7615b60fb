package child

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// copyTree copies the directory tree src to dst, which must not exist,
// leaving out version control directories. The copy is writable whatever
// the modes of the originals (the module cache is read-only).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if rel != "." && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn") {
				return filepath.SkipDir
			}
			return os.Mkdir(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			return copyFile(p, to, info.Mode().Perm()|0o644)
		}
		return nil // sockets, devices: not source
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// modFile is the part of go mod edit -json's output fixGoMod reads.
type modFile struct {
	Module    struct{ Path string }
	Go        string
	Toolchain string
	Replace   []struct{ Old, New modVersion }
	Exclude   []modVersion
}

// A modVersion is a module path with an optional version.
type modVersion struct{ Path, Version string }

func (v modVersion) String() string {
	if v.Version == "" {
		return v.Path
	}
	return v.Path + "@" + v.Version
}

// fixGoMod makes the go.mod of the copy in root of module m the one the
// go command uses for m, under m's path. A dependency's replace, exclude
// and toolchain lines, which the user's build ignores, are dropped; a
// main module's replacements by relative directories are made absolute.
// It returns the go line of the module.
func fixGoMod(ctx context.Context, root string, m *Module) (string, error) {
	gomod := filepath.Join(root, "go.mod")
	if m.GoMod != "" && filepath.Clean(m.GoMod) != filepath.Join(m.Dir, "go.mod") {
		// A go.mod from the download cache: the module has none of its
		// own, or the copy must use the one the go command synthesized.
		src, err := os.ReadFile(m.GoMod)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(gomod, src, 0o644); err != nil {
			return "", err
		}
	}
	if _, err := os.Stat(gomod); err != nil {
		if err := os.WriteFile(gomod, []byte(fmt.Sprintf("module %s\n", m.Path)), 0o644); err != nil {
			return "", err
		}
	}
	mf, err := readModFile(ctx, gomod)
	if err != nil {
		return "", err
	}
	var edits []string
	if mf.Module.Path != m.Path {
		edits = append(edits, "-module="+m.Path)
	}
	for _, r := range mf.Replace {
		switch {
		case !m.Main:
			edits = append(edits, "-dropreplace="+r.Old.String())
		case r.New.Version == "" && !filepath.IsAbs(r.New.Path):
			edits = append(edits, "-replace="+r.Old.String()+"="+filepath.Join(m.Dir, r.New.Path))
		}
	}
	if !m.Main {
		for _, e := range mf.Exclude {
			edits = append(edits, "-dropexclude="+e.String())
		}
		if mf.Toolchain != "" {
			edits = append(edits, "-toolchain=none")
		}
	}
	if len(edits) > 0 {
		args := append(append([]string{"mod", "edit"}, edits...), gomod)
		if _, err := goOutput(ctx, root, []string{"GOWORK=off"}, args...); err != nil {
			return "", err
		}
	}
	return mf.Go, nil
}

// readModFile reads the go.mod file gomod.
func readModFile(ctx context.Context, gomod string) (*modFile, error) {
	out, err := goOutput(ctx, filepath.Dir(gomod), []string{"GOWORK=off"}, "mod", "edit", "-json", gomod)
	if err != nil {
		return nil, err
	}
	var mf modFile
	if err := json.Unmarshal(out, &mf); err != nil {
		return nil, fmt.Errorf("reading go mod edit's output: %w", err)
	}
	return &mf, nil
}

// moduleCopy returns the root of a writable copy of module m under
// shared, made now or by an earlier build (the builds only lay files
// over it), with its go.mod fixed (see fixGoMod), and the module's go
// line.
func moduleCopy(ctx context.Context, shared string, m *Module) (root, goLine string, err error) {
	sum := sha256.Sum256([]byte(m.Path + "\x00" + m.Dir + "\x00" + m.GoMod + fmt.Sprint(m.Main)))
	final := filepath.Join(shared, fmt.Sprintf("module-%x", sum[:8]))
	root = filepath.Join(final, "m")
	if _, err := os.Stat(root); err == nil {
		mf, err := readModFile(ctx, filepath.Join(root, "go.mod"))
		if err != nil {
			return "", "", err
		}
		return root, mf.Go, nil
	}
	tmp, err := os.MkdirTemp(shared, "copy-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(tmp) // once renamed, empty
	if err := copyTree(m.Dir, filepath.Join(tmp, "m")); err != nil {
		return "", "", err
	}
	if goLine, err = fixGoMod(ctx, filepath.Join(tmp, "m"), m); err != nil {
		return "", "", err
	}
	if err := os.Rename(tmp, final); err != nil {
		// Copied meanwhile by another build: use that copy.
		if _, serr := os.Stat(root); serr != nil {
			return "", "", err
		}
	}
	return root, goLine, nil
}
