package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/depcon/depcon/analyzers/suite"
	"github.com/depcon/depcon/runtime/sarif/sariftest"
)

// TestVetSARIF runs depcon vet -sarif -o FILE on a copy of the testdata
// module of runtime/sarif (a self-deadlock, a lock-order inversion within
// a package and one across packages) and checks the log: valid SARIF
// 2.1.0, a rule per analyzer, the three results with their rule ids and
// the related locations of the first two.
func TestVetSARIF(t *testing.T) {
	bin := depconBin(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../runtime/sarif/testdata/vetmod")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "vet.sarif")
	cmd := exec.Command(bin, "vet", "-sarif", "-o", out, "./...")
	cmd.Dir = dir
	// Exit status 1 for the diagnostics, as without -sarif.
	if msg, err := cmd.CombinedOutput(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitFindings {
		t.Fatalf("depcon vet -sarif: %v, want exit status 1\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(data); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, data)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				RelatedLocations []struct {
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v\n%s", err, data)
	}
	run := log.Runs[0]
	var rules []string
	for _, r := range run.Tool.Driver.Rules {
		rules = append(rules, r.ID)
	}
	var want []string
	for _, a := range suite.Analyzers() {
		want = append(want, a.Name)
	}
	if run.Tool.Driver.Name != "depcon" || !slices.Equal(rules, want) {
		t.Errorf("driver %s, rules %v, want %v", run.Tool.Driver.Name, rules, want)
	}
	var got []string
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		s := r.RuleID + " " + loc.ArtifactLocation.URIBaseID + "/" + loc.ArtifactLocation.URI
		for _, rel := range r.RelatedLocations {
			s += " [" + rel.Message.Text + "]"
		}
		got = append(got, s)
	}
	wantResults := []string{
		"selfdeadlock %SRCROOT%/app/app.go [c.mu acquired here]",
		"lockorder %SRCROOT%/app/app.go",
		"lockorder %SRCROOT%/app/app.go [AB locks l.b while holding l.a]",
	}
	if !slices.Equal(got, wantResults) {
		t.Errorf("results:\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(wantResults, "\n\t"))
	}
}

// TestVetSARIFUsage checks the exit status of bad invocations of depcon
// vet -sarif and that -h documents its flags.
func TestVetSARIFUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"depcon", "vet", "-sarif", "-nosuchflag", "."}
	if code := run(args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "-nosuchflag") {
		t.Errorf("%q: exit %d, stderr %q: want 2 and the flag named", args, code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"depcon", "vet", "-sarif", "-h"}, &stdout, &stderr); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
	for _, f := range []string{"-o file", "-test", "-sarif"} {
		if !strings.Contains(stderr.String(), f) {
			t.Errorf("-h does not document %s:\n%s", f, stderr.String())
		}
	}
	if code := run([]string{"depcon", "vet", "-sarif", "./no/such/dir"}, &stdout, &stderr); code != exitError {
		t.Errorf("a package that does not load: exit %d, want 2", code)
	}
}

func TestWantsSARIF(t *testing.T) {
	for args, want := range map[string]bool{
		"-sarif ./...":              true,
		"-o x.sarif -sarif ./...":   true,
		"--sarif ./...":             true,
		"-sarif=true ./...":         true,
		"-sarif=false ./...":        false,
		"./... -sarif":              false, // after the packages
		"-json ./...":               false,
		"-selfdeadlock=false ./...": false,
		"":                          false,
	} {
		if got := wantsSARIF(strings.Fields(args)); got != want {
			t.Errorf("wantsSARIF(%q) = %v, want %v", args, got, want)
		}
	}
}

// flagSets returns, for each depcon command the workflow runs, its flags
// and whether each takes a value: vet -sarif's from its flag set, test's
// from the help of depcon test.
func flagSets(t *testing.T) map[string]map[string]bool {
	t.Helper()
	vet := map[string]bool{}
	fs, _, _ := vetSARIFFlags(io.Discard)
	fs.VisitAll(func(f *flag.Flag) {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		vet[f.Name] = !ok || !b.IsBoolFlag()
	})
	var stderr bytes.Buffer
	if code := run([]string{"depcon", "test", "-h"}, io.Discard, &stderr); code != 0 {
		t.Fatalf("depcon test -h: exit %d", code)
	}
	test := map[string]bool{}
	// flag.PrintDefaults: "  -name type" for a flag with a value,
	// "  -name" for a boolean.
	for _, m := range regexp.MustCompile(`(?m)^  -(\S+)( \S+)?`).FindAllStringSubmatch(stderr.String(), -1) {
		test[m[1]] = m[2] != ""
	}
	if len(test) == 0 {
		t.Fatalf("no flags in depcon test -h:\n%s", stderr.String())
	}
	return map[string]map[string]bool{"vet": vet, "test": test}
}

// TestCIWorkflow parses docs/ci-workflow.yml and checks its jobs (vet
// with -sarif uploaded to code scanning, sharded tests, their merge into
// a SARIF log uploaded too, golangci-lint with the plugin), and that
// every flag of every depcon command of its run steps exists.
func TestCIWorkflow(t *testing.T) {
	data, err := os.ReadFile("../../docs/ci-workflow.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Needs    any `yaml:"needs"`
			Strategy struct {
				Matrix map[string]any `yaml:"matrix"`
			} `yaml:"strategy"`
			Steps []struct {
				Name string            `yaml:"name"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	for _, job := range []string{"vet", "test", "test-report", "golangci-lint"} {
		if _, ok := wf.Jobs[job]; !ok {
			t.Errorf("no job %s", job)
		}
	}
	if shards, _ := wf.Jobs["test"].Strategy.Matrix["shard"].([]any); len(shards) < 2 {
		t.Errorf("the test job has no matrix of shards: %v", wf.Jobs["test"].Strategy.Matrix)
	}
	if wf.Jobs["test-report"].Needs != "test" {
		t.Errorf("test-report needs %v, want test", wf.Jobs["test-report"].Needs)
	}

	sets := flagSets(t)
	seen := map[string]bool{} // "vet -sarif", "test -shard"...
	uploads := map[string]string{}
	for name, job := range wf.Jobs {
		for _, step := range job.Steps {
			if strings.HasPrefix(step.Uses, "github/codeql-action/upload-sarif@") {
				uploads[name] = step.With["sarif_file"]
			}
			for _, cmd := range depconCommands(step.Run) {
				flags, ok := sets[cmd[0]]
				if !ok {
					t.Errorf("job %s runs depcon %s, a command the test does not know", name, cmd[0])
					continue
				}
				seen[cmd[0]] = true
				for i := 1; i < len(cmd); i++ {
					arg := cmd[i]
					if !strings.HasPrefix(arg, "-") || arg == "-" {
						break // the packages or files
					}
					fname, _, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
					takesValue, ok := flags[fname]
					if !ok {
						t.Errorf("job %s: depcon %s has no flag -%s: %s", name, cmd[0], fname, strings.Join(cmd, " "))
						takesValue = true
					}
					seen[cmd[0]+" -"+fname] = true
					if takesValue && !hasValue {
						i++ // its value
					}
				}
			}
		}
	}
	for _, want := range []string{"vet -sarif", "vet -o", "test -shard", "test -json", "test -merge", "test -sarif"} {
		if !seen[want] {
			t.Errorf("the workflow never runs depcon %s", want)
		}
	}
	if uploads["vet"] != "depcon-vet.sarif" || uploads["test-report"] != "depcon-test.sarif" {
		t.Errorf("SARIF uploads: %v", uploads)
	}
	if !strings.Contains(string(data), "./custom-gcl run") || !strings.Contains(string(data), "golangci-lint custom") {
		t.Error("the golangci-lint job does not build and run the custom binary")
	}

	// docs/CI.md shows the workflow as it is.
	doc, err := os.ReadFile("../../docs/CI.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```yaml\n"+string(data)+"```\n") {
		t.Error("docs/CI.md does not show docs/ci-workflow.yml as it is (copy it into the yaml block)")
	}
}

// depconCommands returns the depcon commands of a shell script: for each
// "depcon COMMAND ARGS..." the command and its arguments, up to the end
// of the simple command (a redirection, a pipe, ;, && or ||).
func depconCommands(script string) [][]string {
	script = strings.ReplaceAll(script, "\\\n", " ")
	// A GitHub expression is one word: ${{ matrix.shard }}/${{ strategy.job-total }}.
	script = regexp.MustCompile(`\$\{\{[^}]*\}\}`).ReplaceAllString(script, "EXPR")
	var out [][]string
	for _, line := range strings.Split(script, "\n") {
		fields := strings.Fields(line)
		for i := 0; i < len(fields); i++ {
			if fields[i] != "depcon" || i+1 == len(fields) {
				continue
			}
			cmd := []string{fields[i+1]}
			for _, f := range fields[i+2:] {
				if strings.ContainsAny(f[:1], "<>|;&") || f == "&&" || f == "||" {
					break
				}
				cmd = append(cmd, f)
			}
			out = append(out, cmd)
		}
	}
	return out
}
