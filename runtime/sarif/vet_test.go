package sarif_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/depcon/depcon/analyzers/suite"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/sarif"
	"github.com/depcon/depcon/runtime/sarif/sariftest"
)

// vetLog runs the suite over the packages of the testdata module vetmod
// as depcon vet does and returns the SARIF log as JSON.
func vetLog(t *testing.T) []byte {
	t.Helper()
	dir, err := filepath.Abs("testdata/vetmod")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := load.Packages(dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(suite.Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	log := sarif.FromVet(graph, suite.Analyzers(), sarif.Options{Version: "v1.2.3", CommandLine: "depcon vet -sarif ./..."})
	var buf bytes.Buffer
	if err := log.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The parts of a log the tests look at, decoded from its JSON.
type (
	jsonLog struct {
		Schema  string    `json:"$schema"`
		Version string    `json:"version"`
		Runs    []jsonRun `json:"runs"`
	}
	jsonRun struct {
		Tool struct {
			Driver struct {
				Name    string     `json:"name"`
				Version string     `json:"version"`
				Rules   []jsonRule `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations []struct {
			CommandLine         string `json:"commandLine"`
			ExecutionSuccessful bool   `json:"executionSuccessful"`
		} `json:"invocations"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
		Artifacts []struct {
			Location jsonArtifactLocation `json:"location"`
			Contents struct {
				Text string `json:"text"`
			} `json:"contents"`
			Roles []string `json:"roles"`
		} `json:"artifacts"`
		Results []jsonResult `json:"results"`
	}
	jsonRule struct {
		ID               string  `json:"id"`
		ShortDescription jsonMsg `json:"shortDescription"`
		FullDescription  jsonMsg `json:"fullDescription"`
		Help             jsonMsg `json:"help"`
		HelpURI          string  `json:"helpUri"`
	}
	jsonMsg struct {
		Text string `json:"text"`
	}
	jsonResult struct {
		RuleID           string         `json:"ruleId"`
		RuleIndex        int            `json:"ruleIndex"`
		Level            string         `json:"level"`
		Message          jsonMsg        `json:"message"`
		Locations        []jsonLocation `json:"locations"`
		RelatedLocations []jsonLocation `json:"relatedLocations"`
		CodeFlows        []struct {
			ThreadFlows []struct {
				ID        string `json:"id"`
				Locations []struct {
					Location     jsonLocation `json:"location"`
					NestingLevel int          `json:"nestingLevel"`
					Importance   string       `json:"importance"`
				} `json:"locations"`
			} `json:"threadFlows"`
		} `json:"codeFlows"`
		Attachments []struct {
			Description      jsonMsg              `json:"description"`
			ArtifactLocation jsonArtifactLocation `json:"artifactLocation"`
		} `json:"attachments"`
		Properties map[string]any `json:"properties"`
	}
	jsonLocation struct {
		ID               int     `json:"id"`
		Message          jsonMsg `json:"message"`
		PhysicalLocation struct {
			ArtifactLocation jsonArtifactLocation `json:"artifactLocation"`
			Region           struct {
				StartLine, StartColumn, EndLine, EndColumn int
			} `json:"region"`
		} `json:"physicalLocation"`
	}
	jsonArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
		Index     *int   `json:"index"`
	}
)

func decode(t *testing.T, data []byte) *jsonLog {
	t.Helper()
	var l jsonLog
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if l.Version != "2.1.0" || l.Schema != sarif.SchemaURI || len(l.Runs) != 1 {
		t.Fatalf("not a 2.1.0 log of one run: %s", data)
	}
	return &l
}

// where formats a location as uri:line:col.
func where(l jsonLocation) string {
	p := l.PhysicalLocation
	s := p.ArtifactLocation.URI
	if p.ArtifactLocation.URIBaseID != "" {
		s = p.ArtifactLocation.URIBaseID + "/" + s
	}
	return s + ":" + itoa(p.Region.StartLine) + ":" + itoa(p.Region.StartColumn)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestFromVet checks the log of the testdata module vetmod: valid against
// the schema, a rule per analyzer of the suite, and the three findings
// (a self-deadlock, an inversion within the package and one against
// package lib) with their related locations.
func TestFromVet(t *testing.T) {
	data := vetLog(t)
	if err := sariftest.Validate(data); err != nil {
		t.Fatalf("the log is not valid SARIF 2.1.0: %v\n%s", err, data)
	}
	l := decode(t, data)
	run := l.Runs[0]
	if d := run.Tool.Driver; d.Name != "depcon" || d.Version != "v1.2.3" {
		t.Errorf("driver %q %q", d.Name, d.Version)
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful ||
		run.Invocations[0].CommandLine != "depcon vet -sarif ./..." {
		t.Errorf("invocations: %+v", run.Invocations)
	}
	root, _ := filepath.Abs("testdata/vetmod")
	if got := run.OriginalURIBaseIDs[sarif.SrcRoot].URI; got != "file://"+filepath.ToSlash(root)+"/" {
		t.Errorf("%%SRCROOT%% is %q, want the module root %s", got, root)
	}
	analyzers := suite.Analyzers()
	if len(run.Tool.Driver.Rules) != len(analyzers) {
		t.Fatalf("%d rules for %d analyzers", len(run.Tool.Driver.Rules), len(analyzers))
	}
	for i, a := range analyzers {
		r := run.Tool.Driver.Rules[i]
		short, _, _ := strings.Cut(a.Doc, "\n")
		if r.ID != a.Name || r.ShortDescription.Text != short || r.FullDescription.Text == "" ||
			!strings.HasPrefix(r.Help.Text, short+"\n\n") ||
			r.HelpURI != "https://pkg.go.dev/github.com/depcon/depcon/analyzers/"+a.Name {
			t.Errorf("rule %d: %+v", i, r)
		}
	}

	type finding struct{ rule, at, msg, related, relatedMsg string }
	want := []finding{
		// Line 28 is "\tif /* « plein » */ c.Len() > 10 {": the call's
		// byte column 28 is the UTF-16 column 26.
		{"selfdeadlock", "%SRCROOT%/app/app.go:28:26", "c.mu is locked (in Len) while already held",
			"%SRCROOT%/app/app.go:26:11", "c.mu acquired here"},
		{"lockorder", "%SRCROOT%/app/app.go:38:14", "but lib.Both (at lib.go:13:15)", "", ""},
		{"lockorder", "%SRCROOT%/app/app.go:73:10", "BA locks l.a while holding l.b",
			"%SRCROOT%/app/app.go:64:10", "AB locks l.b while holding l.a"},
	}
	if len(run.Results) != len(want) {
		t.Fatalf("%d results, want %d:\n%s", len(run.Results), len(want), data)
	}
	for i, w := range want {
		r := run.Results[i]
		if r.RuleID != w.rule || run.Tool.Driver.Rules[r.RuleIndex].ID != w.rule || r.Level != "warning" ||
			len(r.Locations) != 1 || where(r.Locations[0]) != w.at || !strings.Contains(r.Message.Text, w.msg) {
			t.Errorf("result %d: got %s at %v: %q, want %s at %s: %q", i, r.RuleID, r.Locations, r.Message.Text,
				w.rule, w.at, w.msg)
		}
		switch {
		case w.related == "" && len(r.RelatedLocations) != 0:
			t.Errorf("result %d: unexpected related locations %+v", i, r.RelatedLocations)
		case w.related != "" && (len(r.RelatedLocations) != 1 || where(r.RelatedLocations[0]) != w.related ||
			r.RelatedLocations[0].Message.Text != w.relatedMsg || r.RelatedLocations[0].ID != 1):
			t.Errorf("result %d: related %+v, want %s %q", i, r.RelatedLocations, w.related, w.relatedMsg)
		}
	}
	// Regions have an end when the diagnostic has one, after the start.
	for _, r := range run.Results {
		rg := r.Locations[0].PhysicalLocation.Region
		if rg.EndLine != 0 && (rg.EndLine < rg.StartLine || rg.EndLine == rg.StartLine && rg.EndColumn <= rg.StartColumn) {
			t.Errorf("%s: bad region %+v", r.RuleID, rg)
		}
	}
}

// TestFromVetFailure checks that an analyzer's failure is a notification
// of an unsuccessful invocation, and that an analyzer outside the rules
// given gets a rule of its own.
func TestFromVetFailure(t *testing.T) {
	dir, err := filepath.Abs("testdata/vetmod")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := load.Packages(dir, []string{"./lib"})
	if err != nil {
		t.Fatal(err)
	}
	boom := &analysis.Analyzer{Name: "boom", Doc: "fail\n\nAlways fails.",
		Run: func(*analysis.Pass) (any, error) { return nil, errors.New("out of luck") }}
	report := &analysis.Analyzer{Name: "report", Doc: "report the package clause",
		Run: func(pass *analysis.Pass) (any, error) {
			pass.Report(analysis.Diagnostic{Pos: pass.Files[0].Name.Pos(), End: pass.Files[0].Name.End(),
				Message: "package " + pass.Pkg.Name(), Category: "demo"})
			return nil, nil
		}}
	graph, err := checker.Analyze([]*analysis.Analyzer{boom, report}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := sarif.FromVet(graph, []*analysis.Analyzer{boom}, sarif.Options{}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(buf.Bytes()); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	var l struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful        bool `json:"executionSuccessful"`
				ToolExecutionNotifications []struct {
					Level   string  `json:"level"`
					Message jsonMsg `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Tool struct {
				Driver struct {
					Rules []jsonRule `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []jsonResult `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	run := l.Runs[0]
	if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful ||
		len(run.Invocations[0].ToolExecutionNotifications) != 1 ||
		run.Invocations[0].ToolExecutionNotifications[0].Level != "error" ||
		run.Invocations[0].ToolExecutionNotifications[0].Message.Text != "boom: example.com/vetmod/lib: out of luck" {
		t.Errorf("invocations: %+v", run.Invocations)
	}
	rules := run.Tool.Driver.Rules
	if len(rules) != 2 || rules[0].ID != "boom" || rules[1].ID != "report" || rules[0].FullDescription.Text != "Always fails." ||
		rules[1].FullDescription.Text != "report the package clause" || rules[1].HelpURI != sarif.InformationURI {
		t.Errorf("rules: %+v", rules)
	}
	if len(run.Results) != 1 || run.Results[0].RuleIndex != 1 || where(run.Results[0].Locations[0]) != "%SRCROOT%/lib/lib.go:2:9" ||
		run.Results[0].Locations[0].PhysicalLocation.Region.EndColumn != 12 || run.Results[0].Properties["category"] != "demo" {
		t.Errorf("results: %+v", run.Results)
	}
}

// TestFromVetNotLoaded checks that each package that did not load is an
// error notification of an unsuccessful invocation, in a valid log.
func TestFromVetNotLoaded(t *testing.T) {
	dir, err := filepath.Abs("testdata/vetmod")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := load.Packages(dir, []string{"./lib"})
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(suite.Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	notLoaded := []string{"example.com/vetmod/bad: bad/bad.go:3:9: expected ')', found '{'"}
	var buf bytes.Buffer
	if err := sarif.FromVet(graph, suite.Analyzers(), sarif.Options{NotLoaded: notLoaded}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(buf.Bytes()); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	var l struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful        bool `json:"executionSuccessful"`
				ToolExecutionNotifications []struct {
					Level   string  `json:"level"`
					Message jsonMsg `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	invs := l.Runs[0].Invocations
	if len(invs) != 1 || invs[0].ExecutionSuccessful || len(invs[0].ToolExecutionNotifications) != 1 ||
		invs[0].ToolExecutionNotifications[0].Level != "error" ||
		invs[0].ToolExecutionNotifications[0].Message.Text != "does not load: "+notLoaded[0] {
		t.Errorf("invocations: %+v", invs)
	}
}
