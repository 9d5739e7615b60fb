package child

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/version"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// A workspace is the go.work file a copied module is built in: the
// user's main modules and the copy, with the user's workspace
// replacements.
type workspace struct {
	use        []string // module directories
	goVersions []string // go lines of the modules and of the user's go.work
	replace    []string // "old [v] => new [v]"
}

// minWorkGo is the first Go version that knows go.work files.
const minWorkGo = "1.18"

// userWorkspace returns the user's main modules other than t's module,
// and the replacements of the user's go.work: nil when the go command
// runs without a main module where t was loaded.
func userWorkspace(ctx context.Context, t Target, env *goEnv) (*workspace, error) {
	if !env.hasMainModule() {
		return nil, nil
	}
	out, err := goOutput(ctx, t.From, nil, "list", "-m", "-json")
	if err != nil {
		return nil, fmt.Errorf("listing the main modules: %w", err)
	}
	ws := &workspace{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m struct{ Path, Dir, GoVersion string }
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading the main modules: %w", err)
		}
		if m.Path != t.Module.Path && m.Dir != "" {
			ws.use = append(ws.use, m.Dir)
			ws.goVersions = append(ws.goVersions, m.GoVersion)
		}
	}
	if env.GOWORK == "" || env.GOWORK == "off" {
		return ws, nil
	}
	out, err = goOutput(ctx, t.From, nil, "work", "edit", "-json", env.GOWORK)
	if err != nil {
		return nil, fmt.Errorf("reading the workspace %s: %w", env.GOWORK, err)
	}
	var wf struct {
		Go      string
		Replace []struct{ Old, New modVersion }
	}
	if err := json.Unmarshal(out, &wf); err != nil {
		return nil, fmt.Errorf("reading the workspace %s: %w", env.GOWORK, err)
	}
	ws.goVersions = append(ws.goVersions, wf.Go)
	for _, r := range wf.Replace {
		if r.Old.Path == t.Module.Path {
			continue // the copy stands for it
		}
		if r.New.Version == "" && !filepath.IsAbs(r.New.Path) {
			r.New.Path = filepath.Join(filepath.Dir(env.GOWORK), r.New.Path)
		}
		ws.replace = append(ws.replace, modLine(r.Old)+" => "+modLine(r.New))
	}
	return ws, nil
}

// modLine writes v as in a go.mod file: "path" or "path version".
func modLine(v modVersion) string {
	if v.Version == "" {
		return strconv.Quote(v.Path)
	}
	return strconv.Quote(v.Path) + " " + v.Version
}

// goLine returns the highest of the go versions of ws, at least
// minWorkGo: the go command refuses a go.work older than one of its
// modules.
func (ws *workspace) goLine() string {
	line := minWorkGo
	for _, v := range ws.goVersions {
		if v != "" && version.Compare("go"+v, "go"+line) > 0 {
			line = v
		}
	}
	return line
}

// write writes ws as a go.work file.
func (ws *workspace) write(file string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "go %s\n\nuse (\n", ws.goLine())
	for _, dir := range ws.use {
		fmt.Fprintf(&b, "\t%s\n", strconv.Quote(dir))
	}
	b.WriteString(")\n")
	if len(ws.replace) > 0 {
		b.WriteString("\nreplace (\n")
		for _, r := range ws.replace {
			fmt.Fprintf(&b, "\t%s\n", r)
		}
		b.WriteString(")\n")
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}
