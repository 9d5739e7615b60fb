package child

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/depcon/depcon/runtime/harness"
)

// TestSandbox checks that files the user's code writes with relative
// names or in the temporary directory land in the child's sandbox, which
// is removed with the child, and not in the package directory.
func TestSandbox(t *testing.T) {
	b := victim(t)
	p, err := Start(b)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	req := harness.Request{Op: harness.OpSeq, Watchdog: time.Second, HardCap: time.Minute,
		Test: harness.Test{Type: "V", Objects: []harness.Call{{Fn: "NewV"}}, Suffix: []harness.Call{{Fn: "Touch"}}}}
	rep, err := p.Do(context.Background(), req, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Result == nil || rep.Result.Status != harness.StatusOK {
		t.Fatalf("reply %+v, want status %s", rep, harness.StatusOK)
	}
	for _, f := range []string{filepath.Join(p.box.dir, "touched.txt"), filepath.Join(p.box.tmp(), "touched-tmp.txt")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("file not in the sandbox: %v", err)
		}
	}
	for _, dir := range []string{b.Dir, "testdata/victim"} {
		if _, err := os.Stat(filepath.Join(dir, "touched.txt")); err == nil {
			t.Errorf("touched.txt written in %s", dir)
			os.Remove(filepath.Join(dir, "touched.txt"))
		}
	}
	p.Kill()
	if _, err := os.Stat(p.box.dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("sandbox %s left behind: %v", p.box.dir, err)
	}
}
