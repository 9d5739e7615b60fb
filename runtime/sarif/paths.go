package sarif

import (
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode/utf8"
)

// Options are the settings of a conversion.
type Options struct {
	// Root is the module root: files below it are written relative to
	// %SRCROOT%. When it is "", FromVet takes the directory of the main
	// module of the analysed packages, FromTestReport that of the module
	// enclosing the working directory.
	Root string
	// Version is the tool version written in the log; "" for ToolVersion().
	Version string
	// CommandLine, when set, is recorded as the run's invocation.
	CommandLine string
	// NotLoaded lists the packages that did not load, one line each
	// ("PATH: ERROR", load.Failed.String): FromVet records each as a
	// tool execution notification of level error.
	NotLoaded []string
}

// InformationURI is the home of depcon.
const InformationURI = "https://pkg.go.dev/github.com/depcon/depcon"

// ToolVersion returns depcon's version from the build information: the
// module version of github.com/depcon/depcon, or its VCS revision when it
// was built from a checkout, or "devel".
func ToolVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	const path = "github.com/depcon/depcon"
	mod := &info.Main
	if mod.Path != path {
		mod = nil
		for _, d := range info.Deps {
			if d.Path == path {
				mod = d
				break
			}
		}
	}
	if mod != nil && mod.Version != "" && mod.Version != "(devel)" {
		return mod.Version
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "devel-" + s.Value[:12]
		}
	}
	return "devel"
}

// FindModuleRoot returns the directory of the go.mod file enclosing dir,
// or "" when there is none.
func FindModuleRoot(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// A locator turns file positions into SARIF locations: paths relative to
// the root, byte columns into UTF-16 columns.
type locator struct {
	root  string              // absolute, cleaned; "" for none
	lines map[string][]string // file contents by line, nil when unreadable
}

func newLocator(root string) *locator {
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			root = abs
		}
		root = filepath.Clean(root)
	}
	return &locator{root: root, lines: map[string][]string{}}
}

// baseIDs returns the run's originalUriBaseIds.
func (l *locator) baseIDs() map[string]*ArtifactLocation {
	if l.root == "" {
		return nil
	}
	return map[string]*ArtifactLocation{SrcRoot: {URI: fileURI(l.root) + "/"}}
}

// under returns the slash path of file relative to the root, if it is
// below it.
func (l *locator) under(file string) (string, bool) {
	if l.root == "" || !filepath.IsAbs(file) {
		return "", false
	}
	rel, err := filepath.Rel(l.root, filepath.Clean(file))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// artifact returns the location of a file: relative to %SRCROOT% when it
// is below the root, an absolute file URI when it is absolute, the path
// as a relative URI otherwise.
func (l *locator) artifact(file string) *ArtifactLocation {
	if rel, ok := l.under(file); ok {
		return &ArtifactLocation{URI: relURI(rel), URIBaseID: SrcRoot}
	}
	if filepath.IsAbs(file) {
		return &ArtifactLocation{URI: fileURI(file)}
	}
	return &ArtifactLocation{URI: relURI(filepath.ToSlash(file))}
}

// location returns the physical location of a position (line and byte
// column, 1-based; 0 when unknown) to an end position (0s for none).
func (l *locator) location(file string, line, col, endLine, endCol int) *PhysicalLocation {
	loc := &PhysicalLocation{ArtifactLocation: l.artifact(file)}
	if line <= 0 {
		return loc
	}
	r := &Region{StartLine: line}
	if col > 0 {
		r.StartColumn = l.column(file, line, col)
	}
	if endLine >= line && endCol > 0 && (endLine > line || endCol > col) {
		r.EndLine = endLine
		r.EndColumn = l.column(file, endLine, endCol)
	}
	loc.Region = r
	return loc
}

// column converts a byte column of a line of file into a column in
// UTF-16 code units, when the file can be read.
func (l *locator) column(file string, line, col int) int {
	lines, ok := l.lines[file]
	if !ok {
		if data, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		l.lines[file] = lines
	}
	if line > len(lines) {
		return col
	}
	text := lines[line-1]
	if col-1 > len(text) {
		return col
	}
	n := 1
	for _, r := range text[:col-1] {
		if r == utf8.RuneError || r < 0x10000 {
			n++
		} else {
			n += 2
		}
	}
	return n
}

// fileURI returns the file URI of an absolute path.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// relURI returns a relative URI reference of a slash path.
func relURI(p string) string {
	return (&url.URL{Path: p}).String()
}
