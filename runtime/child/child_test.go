package child

import (
	"context"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/testgen"
)

func TestChooseNames(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	if n := ChooseNames(pkg); n.Prefix != "depconH" || n.Test != "TestDepconHarness" {
		t.Errorf("names %+v for an empty package", n)
	}
	pkg.Scope().Insert(types.NewVar(0, pkg, "depconHx", types.Typ[types.Int]))
	if n := ChooseNames(pkg); n.Prefix != "depconH2" || n.Test != "TestDepconHarness2" {
		t.Errorf("names %+v, want depconH2 when depconHx is declared", n)
	}
}

func TestRewrite(t *testing.T) {
	files, err := Rewrite("victim", "depconH")
	if err != nil {
		t.Fatal(err)
	}
	h := string(files["harness.go"])
	for _, want := range []string{"package victim", "func depconHServe() error", "func (r *depconHRegistry) Serve(",
		"var depconHregistry = depconHNewRegistry()"} {
		if !strings.Contains(h, want) {
			t.Errorf("rewritten harness.go lacks %q", want)
		}
	}
	if strings.Contains(h, "Package harness") {
		t.Errorf("rewritten harness.go keeps the package doc")
	}
	if p := string(files["protocol.go"]); !strings.Contains(p, "type depconHValue struct") ||
		!regexp.MustCompile(`\n\tCall +\*depconHCall `).MatchString(p) {
		t.Errorf("rewritten protocol.go: field or type names wrong:\n%s", p)
	}
}

// victim returns the child of testdata/victim, a module that does not
// depend on depcon, built once for all tests.
func victim(t *testing.T) *Binary {
	t.Helper()
	shared.once.Do(func() {
		shared.bin, shared.err = buildVictim()
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.bin
}

var shared struct {
	once sync.Once
	work string
	bin  *Binary
	err  error
}

func buildVictim() (*Binary, error) {
	from, err := filepath.Abs("testdata/victim")
	if err != nil {
		return nil, err
	}
	pkgs, err := load.Packages(from, []string{"."})
	if err != nil {
		return nil, err
	}
	var ms []deps.Method
	for _, m := range []string{"Exit", "Get", "Inc", "Put", "Spin", "Touch", "Unlock"} {
		ms = append(ms, deps.Method{Name: m})
	}
	s, err := testgen.NewSubject(pkgs[0].Types, &deps.TypePlan{Name: "V", Methods: ms})
	if err != nil {
		return nil, err
	}
	if shared.work, err = os.MkdirTemp("", "child-test-"); err != nil {
		return nil, err
	}
	target := Target{Dir: from, Path: pkgs[0].PkgPath, Module: ModuleOf(pkgs[0].Module), From: from}
	return Build(context.Background(), shared.work, target, []*testgen.Subject{s})
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.work != "" {
		os.RemoveAll(shared.work)
	}
	os.Exit(code)
}

func request(op string, m1 string, more ...string) harness.Request {
	suffix := []harness.Call{{Fn: m1}}
	for _, m := range more {
		suffix = append(suffix, harness.Call{Fn: m})
	}
	for i := range suffix {
		if suffix[i].Fn == "Exit" {
			suffix[i].Args = []harness.Value{{K: harness.KLit, Lit: "3"}}
		}
	}
	return harness.Request{Op: op, Watchdog: 200 * time.Millisecond, HardCap: time.Hour,
		Test: harness.Test{Type: "V", Objects: []harness.Call{{Fn: "NewV"}}, Suffix: suffix, Iters: 10}}
}

func TestChild(t *testing.T) {
	b := victim(t)
	ctx := context.Background()
	for _, tc := range []struct {
		req        harness.Request
		status     string // of a result
		death      string // or kind of death
		msg, step  string
		code       int
		reportHint string
	}{
		{req: request(harness.OpRun, "Get", "Get"), status: harness.StatusOK},
		{req: request(harness.OpRun, "Inc", "Inc"), death: DeathRace, msg: "data race", step: "suffix",
			code: RaceExit, reportHint: "victim.(*V).Inc"},
		{req: request(harness.OpSeq, "Get", "Unlock"), death: DeathFatal, msg: "sync: unlock of unlocked mutex",
			step: "suffix 1", code: 2, reportHint: "victim.(*V).Unlock"},
		{req: request(harness.OpSeq, "Exit"), death: DeathExit, msg: "exit status 3", step: "suffix 0", code: 3},
		{req: request(harness.OpSeq, "Spin"), death: DeathKilled, step: "suffix 0", code: -1},
	} {
		p, err := Start(b)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := p.Do(ctx, tc.req, 2*time.Second)
		p.Kill()
		if err != nil {
			t.Fatal(err)
		}
		name := tc.req.Op + " " + tc.req.Test.Suffix[0].Fn
		if tc.status != "" {
			if rep.Result == nil || rep.Result.Status != tc.status {
				t.Errorf("%s: reply %+v, want status %s", name, rep, tc.status)
			}
			continue
		}
		d := rep.Death
		if rep.Result != nil || d == nil {
			t.Errorf("%s: reply %+v, want a death", name, rep)
			continue
		}
		if d.Kind != tc.death || d.Code != tc.code || tc.msg != "" && d.Msg != tc.msg || rep.Step != tc.step {
			t.Errorf("%s: death %s %q code %d at %q, want %s %q code %d at %q", name, d.Kind, d.Msg, d.Code,
				rep.Step, tc.death, tc.msg, tc.code, tc.step)
		}
		if !strings.Contains(d.Report, tc.reportHint) {
			t.Errorf("%s: report lacks %q:\n%s", name, tc.reportHint, d.Report)
		}
		// The killed child's process group is gone.
		if err := syscall.Kill(-p.cmd.Cmd.Process.Pid, 0); err == nil {
			t.Errorf("%s: process group %d still alive", name, p.cmd.Cmd.Process.Pid)
		}
	}
}

func TestCanceled(t *testing.T) {
	b := victim(t)
	p, err := Start(b)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := p.Do(ctx, request(harness.OpSeq, "Spin"), time.Hour); err == nil {
		t.Errorf("no error when the context is done")
	}
	if err := syscall.Kill(-p.cmd.Cmd.Process.Pid, 0); err == nil {
		t.Errorf("process group still alive")
	}
	// The overlay left the package untouched.
	if _, err := os.Stat(filepath.Join(b.Dir, "zz_depcon_harness_test.go")); err == nil {
		t.Errorf("harness written into the package")
	}
}
