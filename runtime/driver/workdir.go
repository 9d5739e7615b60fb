package driver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/isolate"
)

// workPrefix starts the names of the work directories of runs, in the
// temporary directory.
const workPrefix = "depcon-test-"

// ownerFile, in a work directory, holds the process id of its run.
const ownerFile = "owner"

// newWorkDir makes the work directory of a run (the children's
// binaries, overlays and scratch directories), after removing those of
// runs whose process is gone: a run killed with SIGKILL could not remove
// its own.
func newWorkDir() (string, error) {
	sweepWorkDirs(os.TempDir())
	work, err := os.MkdirTemp("", workPrefix)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(work, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		_ = os.RemoveAll(work)
		return "", err
	}
	return work, nil
}

// sweepWorkDirs removes from dir the work directories whose run's
// process no longer exists, and those over a day old with no owner.
func sweepWorkDirs(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), workPrefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(filepath.Join(p, ownerFile))
		if err != nil {
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > 24*time.Hour {
				_ = os.RemoveAll(p)
			}
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid != os.Getpid() && !isolate.Alive(pid) {
			_ = os.RemoveAll(p)
		}
	}
}
