package child

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// A sandbox is the fresh working directory of a process run from a child
// binary: files the user's code creates with relative names, in the
// temporary directory or in the home directory land in it, and it is
// removed when the process is gone.
type sandbox struct {
	dir string
}

// newSandbox makes a sandbox in the directory parent.
func newSandbox(parent string) (*sandbox, error) {
	dir, err := os.MkdirTemp(parent, "run-")
	if err != nil {
		return nil, fmt.Errorf("making a sandbox: %w", err)
	}
	s := &sandbox{dir: dir}
	for _, d := range []string{s.tmp(), s.home()} {
		if err := os.Mkdir(d, 0o755); err != nil {
			_ = s.remove()
			return nil, fmt.Errorf("making a sandbox: %w", err)
		}
	}
	return s, nil
}

func (s *sandbox) tmp() string  { return filepath.Join(s.dir, "tmp") }
func (s *sandbox) home() string { return filepath.Join(s.dir, "home") }

// env returns the environment variables that point the process into the
// sandbox. The go command's caches and settings stay where they were: a
// go command the user's code runs behaves as the user's.
func (s *sandbox) env() []string {
	h := s.home()
	env := []string{"TMPDIR=" + s.tmp(), "PWD=" + s.dir}
	goDirs, err := goDirsOnce()
	if err != nil {
		return env // the home directory is left as it is, so that go still finds its caches
	}
	env = append(env, "HOME="+h,
		"XDG_CONFIG_HOME="+filepath.Join(h, ".config"), "XDG_CACHE_HOME="+filepath.Join(h, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(h, ".local", "share"), "XDG_STATE_HOME="+filepath.Join(h, ".local", "state"))
	for _, kv := range [][2]string{{"GOCACHE", goDirs.GOCACHE}, {"GOPATH", goDirs.GOPATH},
		{"GOMODCACHE", goDirs.GOMODCACHE}, {"GOENV", goDirs.GOENV}} {
		if kv[1] != "" {
			env = append(env, kv[0]+"="+kv[1])
		}
	}
	return env
}

// goDirs are the go command's directories that derive from the home
// directory by default.
type goDirs struct{ GOCACHE, GOPATH, GOMODCACHE, GOENV string }

var goDirsOnce = sync.OnceValues(func() (*goDirs, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := goOutput(ctx, "", nil, "env", "-json", "GOCACHE", "GOPATH", "GOMODCACHE", "GOENV")
	if err != nil {
		return nil, err
	}
	var d goDirs
	if err := json.Unmarshal(out, &d); err != nil {
		return nil, fmt.Errorf("reading the output of go env: %w", err)
	}
	return &d, nil
})

// remove removes the sandbox, whatever modes the process left on its
// files. Processes that were killed a moment ago may still be finishing
// a write, hence the retries.
func (s *sandbox) remove() error {
	var err error
	for range 5 {
		if err = os.RemoveAll(s.dir); err == nil {
			return nil
		}
		_ = filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("removing the sandbox: %w", err)
}
