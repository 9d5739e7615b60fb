package isolate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// workflow is what the test reads of a GitHub Actions workflow.
type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Needs    string `yaml:"needs"`
		If       string `yaml:"if"`
		Strategy struct {
			Matrix struct {
				Shard []int `yaml:"shard"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []workflowStep `yaml:"steps"`
	} `yaml:"jobs"`
}

type workflowStep struct {
	Name       string            `yaml:"name"`
	If         string            `yaml:"if"`
	Uses       string            `yaml:"uses"`
	Run        string            `yaml:"run"`
	With       map[string]string `yaml:"with"`
	WorkingDir string            `yaml:"working-directory"`
}

// scratchModule is the project the workflow runs on: Tally's Total
// forgets the lock (a race depcon vet and depcon test find), Counter is
// correct.
var scratchModule = map[string]string{
	"go.mod": "module example.com/scratch\n\ngo 1.22\n",
	"counter/counter.go": `// Package counter is a module to run depcon on.
package counter

import "sync"

// A Counter counts, safely from any goroutine.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Value returns the count.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// A Tally counts; Total forgets the lock.
type Tally struct {
	mu sync.Mutex
	n  int
}

// NewTally returns an empty tally.
func NewTally() *Tally { return &Tally{} }

// Add adds one.
func (t *Tally) Add() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

// Total returns the count.
func (t *Tally) Total() int { return t.n }
`,
}

// A workflowRun runs the jobs of docs/ci-workflow.yml on a scratch
// module, as a GitHub runner would: each job in a fresh checkout at the
// same path, its run steps in bash -eo pipefail, a step without an if
// condition skipped after a failure. The actions are stood in for:
// checking out depcon links its checkout to this module, setup-go keeps
// the go command on PATH, the artifacts are directories, and code
// scanning's upload checks the SARIF log.
type workflowRun struct {
	t         *testing.T
	ctx       context.Context
	wf        workflow
	root      string // this module's root: depcon's source
	ws        string // the workspace, the project's checkout
	artifacts string
	sarif     map[string]map[string]any // uploaded logs by category
}

// stepResult is what became of a step.
type stepResult struct {
	name    string
	skipped bool
	failed  bool
	status  int // the exit status of a run step
	output  string
}

// TestCIWorkflowRuns runs the vet, test and test-report jobs of
// docs/ci-workflow.yml (the golangci-lint job needs the network to build
// golangci-lint, and is left out) on a scratch module with a race, and
// checks what each job leaves: a SARIF log of depcon vet with the
// diagnostic, the test shards' reports with the reproducer of the race
// in the shard that found it (its job failing), and the merged SARIF log
// with the race (the merge failing as it should).
func TestCIWorkflowRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds depcon and runs it on a module")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	if j, err := New(Policy{}); err != nil {
		t.Skipf("no isolation here, depcon test would refuse: %v", err)
	} else {
		j.Close()
	}
	data, err := os.ReadFile("../../docs/ci-workflow.yml")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	r := &workflowRun{t: t, ctx: ctx, root: root, ws: filepath.Join(tmp, "work"),
		artifacts: filepath.Join(tmp, "artifacts"), sarif: map[string]map[string]any{}}
	if err := yaml.Unmarshal(data, &r.wf); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"vet", "test", "test-report", "golangci-lint"} {
		if _, ok := r.wf.Jobs[name]; !ok {
			t.Fatalf("the workflow has no job %s", name)
		}
	}

	// vet: the diagnostic fails the job, and the log is uploaded with it.
	for _, s := range r.job("vet", 0, 0) {
		if s.name == "depcon vet" {
			if s.status != 1 {
				t.Errorf("depcon vet of a module with a diagnostic: exit status %d, want 1:\n%s", s.status, s.output)
			}
		} else if s.failed || s.skipped {
			t.Errorf("vet: step %q failed or was skipped:\n%s", s.name, s.output)
		}
	}
	if !strings.Contains(fmt.Sprint(r.sarif["depcon-vet"]), "without t.mu") {
		t.Errorf("the vet log has no diagnostic of Total's read: %v", r.sarif["depcon-vet"])
	}

	// test: one job per shard; the one that tests Tally fails, and every
	// one keeps its report.
	shards := r.wf.Jobs["test"].Strategy.Matrix.Shard
	if len(shards) < 2 {
		t.Fatalf("the test job has no matrix of shards: %v", shards)
	}
	failed, tally := 0, 0
	for _, k := range shards {
		for _, s := range r.job("test", k, len(shards)) {
			if strings.HasPrefix(s.name, "depcon test") && s.status == 1 {
				failed++
			} else if s.failed || s.skipped {
				t.Errorf("test shard %d: step %q failed or was skipped:\n%s", k, s.name, s.output)
			}
		}
		var rep struct {
			Isolation string
			Types     []struct{ Type string }
		}
		readJSON(t, filepath.Join(r.artifacts, fmt.Sprintf("depcon-test-%d", k), "depcon-test.json"), &rep)
		if rep.Isolation == "" || strings.HasPrefix(rep.Isolation, "none") {
			t.Errorf("shard %d: isolation %q", k, rep.Isolation)
		}
		for _, ty := range rep.Types {
			if ty.Type == "Tally" {
				tally = k
				repro := filepath.Join(r.artifacts, fmt.Sprintf("depcon-test-%d", k), "reproducers", "depcon_tally_add_total_test.go")
				if _, err := os.Stat(repro); err != nil {
					t.Errorf("shard %d tested Tally but kept no reproducer: %v", k, err)
				}
			}
		}
	}
	if failed != 1 {
		t.Errorf("%d test jobs failed, want 1 (the shard that tests Tally)", failed)
	}

	// test-report: the merge fails (the race), its log is uploaded.
	for _, s := range r.job("test-report", 0, 0) {
		if strings.HasPrefix(s.name, "Merge") {
			if s.status != 1 {
				t.Errorf("the merge of a report with a race: exit status %d, want 1:\n%s", s.status, s.output)
			}
		} else if s.failed || s.skipped {
			t.Errorf("test-report: step %q failed or was skipped:\n%s", s.name, s.output)
		}
	}
	if !strings.Contains(fmt.Sprint(r.sarif["depcon-test"]), "test/race") {
		t.Errorf("the merged log has no race: %v", r.sarif["depcon-test"])
	}

	// The shard that tests Tally again, with the mount namespace
	// fallback forced: the race is found and reproduced in it too.
	t.Setenv(IsolationEnv, "namespaces")
	j, err := New(Policy{})
	if err != nil {
		t.Logf("the test job with %s=namespaces not run: %v", IsolationEnv, err)
		return
	}
	j.Close()
	if tally == 0 {
		return
	}
	r.job("test", tally, len(shards))
	var rep struct {
		Isolation string
		Types     []struct {
			Type       string
			Violations []struct{ Kind, Reproduced string }
		}
	}
	readJSON(t, filepath.Join(r.artifacts, fmt.Sprintf("depcon-test-%d", tally), "depcon-test.json"), &rep)
	if !strings.HasPrefix(rep.Isolation, "mountns (read-only root)") {
		t.Errorf("%s=namespaces: isolation %q", IsolationEnv, rep.Isolation)
	}
	if !strings.Contains(fmt.Sprint(rep.Types), "Tally [{race yes}]") {
		t.Errorf("%s=namespaces: the race in Tally is not found and reproduced: %+v", IsolationEnv, rep.Types)
	}
}

// job runs the job name (shard k of n for the test job) in a fresh
// checkout of the scratch module.
func (r *workflowRun) job(name string, k, n int) []stepResult {
	t := r.t
	job := r.wf.Jobs[name]
	if err := os.RemoveAll(r.ws); err != nil {
		t.Fatal(err)
	}
	for p, src := range scratchModule {
		p = filepath.Join(r.ws, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A GOBIN of the job's own: the job installs depcon itself.
	gobin := filepath.Join(t.TempDir(), "bin")
	env := append(os.Environ(), "GOBIN="+gobin, "PATH="+gobin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	for k, v := range r.wf.Env {
		env = append(env, k+"="+v)
	}
	vars := map[string]string{"matrix.shard": fmt.Sprint(k), "strategy.job-total": fmt.Sprint(n)}
	for k, v := range r.wf.Env {
		vars["env."+k] = v
	}
	var out []stepResult
	failed := false
	for i, step := range job.Steps {
		res := stepResult{name: r.expand(step.Name, vars)}
		if res.name == "" {
			res.name = fmt.Sprintf("%d: %s", i, step.Uses)
		}
		if !r.condition(step.If, failed) {
			res.skipped = true
			out = append(out, res)
			continue
		}
		var err error
		switch {
		case step.Run != "":
			res.output, err = r.run(r.expand(step.Run, vars), filepath.Join(r.ws, step.WorkingDir), env)
		case step.Uses != "":
			err = r.uses(step, vars)
		}
		if err != nil {
			res.failed, failed = true, true
			res.output += err.Error()
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				res.status = ee.ExitCode()
			}
		}
		t.Logf("job %s %d/%d, step %q: failed %v", name, k, n, res.name, res.failed)
		out = append(out, res)
	}
	return out
}

// expand replaces the expressions ${{ ... }} of s by their values.
func (r *workflowRun) expand(s string, vars map[string]string) string {
	return regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`).ReplaceAllStringFunc(s, func(e string) string {
		name := strings.TrimSpace(e[3 : len(e)-2])
		v, ok := vars[name]
		if !ok {
			r.t.Fatalf("the workflow uses the expression %s, which the test does not know", e)
		}
		return v
	})
}

// condition evaluates a step's if: a conjunction of !cancelled(),
// always() and hashFiles of a file compared with the empty string (the
// file exists); no condition means that no step failed before.
func (r *workflowRun) condition(cond string, failed bool) bool {
	cond = strings.TrimSpace(cond)
	if cond == "" {
		return !failed
	}
	cond = strings.TrimSuffix(strings.TrimPrefix(cond, "${{"), "}}")
	for term := range strings.SplitSeq(cond, "&&") {
		term = strings.TrimSpace(term)
		switch {
		case term == "!cancelled()" || term == "always()":
		case strings.HasPrefix(term, "hashFiles('") && strings.HasSuffix(term, "') != ''"):
			f := strings.TrimSuffix(strings.TrimPrefix(term, "hashFiles('"), "') != ''")
			if _, err := os.Stat(filepath.Join(r.ws, f)); err != nil {
				return false
			}
		default:
			r.t.Fatalf("the workflow has the condition %q, which the test does not know", term)
		}
	}
	return true
}

// run runs a run step's script as GitHub's runner does on Linux.
func (r *workflowRun) run(script, dir string, env []string) (string, error) {
	cmd := exec.CommandContext(r.ctx, "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// uses stands in for the action of step.
func (r *workflowRun) uses(step workflowStep, vars map[string]string) error {
	t := r.t
	action, _, _ := strings.Cut(step.Uses, "@")
	with := map[string]string{}
	for k, v := range step.With {
		with[k] = r.expand(v, vars)
	}
	switch action {
	case "actions/checkout":
		if with["repository"] == "" {
			return nil // the project, in the workspace already
		}
		if with["repository"] != "depcon/depcon" || with["path"] == "" {
			t.Errorf("checkout of %v, want depcon/depcon in a directory of the workspace", with)
		}
		return os.Symlink(r.root, filepath.Join(r.ws, with["path"]))
	case "actions/setup-go":
		return nil
	case "actions/upload-artifact":
		dst := filepath.Join(r.artifacts, with["name"])
		for p := range strings.SplitSeq(strings.TrimSpace(with["path"]), "\n") {
			p = strings.TrimSuffix(strings.TrimSpace(p), "/")
			if err := copyTree(filepath.Join(r.ws, p), filepath.Join(dst, p)); err != nil &&
				(!errors.Is(err, fs.ErrNotExist) || with["if-no-files-found"] != "ignore") {
				return err
			}
		}
		return nil
	case "actions/download-artifact":
		names, err := filepath.Glob(filepath.Join(r.artifacts, with["pattern"]))
		if err != nil || len(names) == 0 {
			return fmt.Errorf("no artifact %s", with["pattern"])
		}
		for _, a := range names {
			if err := copyTree(a, filepath.Join(r.ws, with["path"], filepath.Base(a))); err != nil {
				return err
			}
		}
		return nil
	case "github/codeql-action/upload-sarif":
		var log map[string]any
		readJSON(t, filepath.Join(r.ws, with["sarif_file"]), &log)
		if log["version"] != "2.1.0" {
			return fmt.Errorf("%s is not a SARIF 2.1.0 log", with["sarif_file"])
		}
		r.sarif[with["category"]] = log
		return nil
	}
	t.Fatalf("the workflow uses %s, which the test does not stand in for", step.Uses)
	return nil
}

// copyTree copies the file or directory src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v", err)
		return
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Errorf("%s: %v", path, err)
	}
}
