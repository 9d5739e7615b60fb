package sarif_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/sarif"
	"github.com/depcon/depcon/runtime/sarif/sariftest"
	"github.com/depcon/depcon/runtime/stacks"
)

// A race report as depcon test keeps it: the two accesses, user frames.
const raceDetails = `==================
WARNING: DATA RACE
Write at 0x00c000014118 by goroutine 9:
  example.com/m.(*Counter).Inc()
      /src/m/counter.go:14 +0x4e

Previous read at 0x00c000014118 by goroutine 8:
  example.com/m.(*Counter).get()
      /src/m/counter.go:25 +0x3a
  example.com/m.(*Counter).Get()
      /src/m/counter.go:19 +0x2f
==================`

// The stacks of a deadlock: the driver's header of each suffix
// goroutine, then the runtime's dump, cut where the harness begins.
const deadlockDetails = `goroutine 1 (a.Transfer):
goroutine 21 [sync.Mutex.Lock]:
internal/sync.runtime_SemacquireMutex(0xc000012345?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/sema.go:95 +0x25
internal/sync.(*Mutex).lockSlow(0xc00001c0f8)
	/usr/local/go/src/internal/sync/mutex.go:149 +0x15d
sync.(*Mutex).Lock(...)
	/usr/local/go/src/sync/mutex.go:46
example.com/m.(*Account).Transfer(0xc00001c0f0, 0xc00001c100, 0x1)
	/src/m/account.go:22 +0x8b
goroutine 2 (b.Transfer):
goroutine 22 [sync.Mutex.Lock]:
internal/sync.runtime_SemacquireMutex(0xc000012346?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/sema.go:95 +0x25
sync.(*Mutex).Lock(...)
	/usr/local/go/src/sync/mutex.go:46
example.com/m.(*Account).Transfer(0xc00001c100, 0xc00001c0f0, 0x1)
	/src/m/account.go:22 +0x8b`

// labelled labels the stacks as the driver does the suffix goroutines.
func labelled(ss []stacks.Stack, labels ...string) []stacks.Stack {
	for i := range ss {
		ss[i].Label = labels[i]
	}
	return ss
}

const reproSource = "package m\n\nimport \"testing\"\n\nfunc TestDepconCounterIncGet(t *testing.T) {}\n"

// testReport is a report with a race (reproducer source), a deadlock on
// two objects (reproducer written to a file, unconfirmed) and a
// self-deadlock without details (located by its evidence).
func testReport() *report.Report {
	return &report.Report{Shard: "2/3", Types: []*report.TypeReport{
		{Package: "example.com/m", Type: "Counter", Violations: []*report.Violation{{
			Kind: report.KindRace, Pair: [2]string{"Inc", "Get"}, Objects: 1, Seed: 42, Count: 3,
			Reproducer: reproSource, Reproduced: report.ReproYes,
			Message: "data race: write in (*Counter).Inc (counter.go:14), previous read in (*Counter).get (counter.go:25)",
			Evidence: []deps.Evidence{{Kind: "pc", Loc1: "recv.n", Loc2: "recv.n",
				Pos1: "/src/m/counter.go:14:4", Pos2: "/src/m/counter.go:25:11", Text: "Inc writes recv.n, Get reads it"}},
			Details: raceDetails, Stacks: stacks.ParseRace(raceDetails),
			Rerun: "depcon test -seed 42 -type '^Counter$' example.com/m",
		}}},
		{Package: "example.com/m", Type: "Account", Violations: []*report.Violation{{
			Kind: report.KindDeadlock, Pair: [2]string{"Transfer", "Transfer"}, Objects: 2, Seed: 7, Count: 1,
			Reproducer: "/src/m/repro/depcon_account_transfer_transfer_test.go", Reproduced: report.ReproNo,
			ReproOutput: "PASS",
			Message:     "a.Transfer ∥ b.Transfer never return (iteration 3): a.Transfer blocked in sync.Mutex.Lock, b.Transfer blocked in sync.Mutex.Lock",
			Details:     deadlockDetails, Stacks: labelled(stacks.ParseDump(deadlockDetails), "goroutine 1 (a.Transfer)", "goroutine 2 (b.Transfer)"),
			Rerun: "depcon test -seed 7 -type '^Account$' example.com/m",
		}}},
		{Package: "example.com/m", Type: "Cache", Violations: []*report.Violation{{
			Kind: report.KindSelfDeadlock, Pair: [2]string{"Put", "Put"}, Objects: 1, Seed: 1, Count: 1,
			Reproduced: report.ReproNotRun, Message: "Put never returns when called alone",
			Evidence: []deps.Evidence{{Kind: "self", Loc1: "recv.mu", Pos1: "/src/m/cache.go:30:9", Text: "Put locks recv.mu while holding it"}},
		}}},
	}}
}

// TestFromTestReport checks the log of a hand-built report: valid against
// the schema, and each violation's rule, level, location, related
// locations, code flow, properties and reproducer.
func TestFromTestReport(t *testing.T) {
	var buf bytes.Buffer
	if err := sarif.FromTestReport(testReport(), sarif.Options{Root: "/src/m", Version: "v0.1.0"}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if err := sariftest.Validate(data); err != nil {
		t.Fatalf("the log is not valid SARIF 2.1.0: %v\n%s", err, data)
	}
	run := decode(t, data).Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, " "); got != "test/race test/panic test/deadlock test/fatal test/not-linearizable test/self-deadlock" {
		t.Errorf("rules %s", got)
	}
	if len(run.Results) != 3 {
		t.Fatalf("%d results, want 3:\n%s", len(run.Results), data)
	}
	race, dl, self := run.Results[0], run.Results[1], run.Results[2]

	// The race: at the first frame of the report, the evidence related.
	if race.RuleID != "test/race" || run.Tool.Driver.Rules[race.RuleIndex].ID != "test/race" || race.Level != "error" ||
		len(race.Locations) != 1 || where(race.Locations[0]) != "%SRCROOT%/counter.go:14:0" ||
		!strings.Contains(race.Message.Text, "race in Counter.Inc ∥ Counter.Get: data race: write") ||
		!strings.Contains(race.Message.Text, "Rerun: depcon test -seed 42") {
		t.Errorf("race result: %+v", race)
	}
	if len(race.RelatedLocations) != 2 || where(race.RelatedLocations[0]) != "%SRCROOT%/counter.go:14:4" ||
		where(race.RelatedLocations[1]) != "%SRCROOT%/counter.go:25:11" || race.RelatedLocations[1].ID != 2 ||
		race.RelatedLocations[0].Message.Text != "[pc] Inc writes recv.n, Get reads it" {
		t.Errorf("race related locations: %+v", race.RelatedLocations)
	}
	// One thread flow per access, frames in call order.
	if len(race.CodeFlows) != 1 || len(race.CodeFlows[0].ThreadFlows) != 2 {
		t.Fatalf("race code flows: %+v", race.CodeFlows)
	}
	tf := race.CodeFlows[0].ThreadFlows
	if tf[0].ID != "Write by goroutine 9" || len(tf[0].Locations) != 1 ||
		tf[1].ID != "Previous read by goroutine 8" || len(tf[1].Locations) != 2 ||
		where(tf[1].Locations[0].Location) != "%SRCROOT%/counter.go:19:0" || tf[1].Locations[0].Location.Message.Text != "example.com/m.(*Counter).Get" ||
		where(tf[1].Locations[1].Location) != "%SRCROOT%/counter.go:25:0" || tf[1].Locations[1].NestingLevel != 1 ||
		tf[1].Locations[1].Importance != "essential" || tf[1].Locations[0].Importance != "important" {
		t.Errorf("race thread flows: %+v", tf)
	}
	props := race.Properties
	if props["seed"] != float64(42) || props["objects"] != float64(1) || props["reproduced"] != "yes" ||
		props["rerun"] != "depcon test -seed 42 -type '^Counter$' example.com/m" || props["package"] != "example.com/m" ||
		props["type"] != "Counter" || props["count"] != float64(3) {
		t.Errorf("race properties: %v", props)
	}
	if pair, _ := props["pair"].([]any); len(pair) != 2 || pair[0] != "Inc" || pair[1] != "Get" {
		t.Errorf("race pair: %v", props["pair"])
	}
	// Its reproducer was not written: an artifact of the run holds it.
	if len(race.Attachments) != 1 || race.Attachments[0].ArtifactLocation.Index == nil ||
		*race.Attachments[0].ArtifactLocation.Index != 0 || len(run.Artifacts) != 1 ||
		run.Artifacts[0].Contents.Text != reproSource || run.Artifacts[0].Roles[0] != "attachment" ||
		run.Artifacts[0].Location.URI != "depcon_counter_inc_get_test.go" {
		t.Errorf("race reproducer: %+v, artifacts %+v", race.Attachments, run.Artifacts)
	}

	// The deadlock: unconfirmed, so a note; two goroutines, the runtime's
	// frames unimportant and outside the module as absolute URIs.
	if dl.RuleID != "test/deadlock" || dl.Level != "note" || where(dl.Locations[0]) != "%SRCROOT%/account.go:22:0" ||
		!strings.Contains(dl.Message.Text, "Account.Transfer ∥ Account.Transfer on two objects") ||
		!strings.Contains(dl.Message.Text, "unconfirmed") || dl.Properties["reproduced"] != "no" ||
		dl.Properties["objects"] != float64(2) || dl.Properties["seed"] != float64(7) {
		t.Errorf("deadlock result: %+v", dl)
	}
	if len(dl.CodeFlows) != 1 || len(dl.CodeFlows[0].ThreadFlows) != 2 {
		t.Fatalf("deadlock code flows: %+v", dl.CodeFlows)
	}
	g1 := dl.CodeFlows[0].ThreadFlows[0]
	if g1.ID != "goroutine 1 (a.Transfer) [sync.Mutex.Lock]" || len(g1.Locations) != 4 ||
		where(g1.Locations[0].Location) != "%SRCROOT%/account.go:22:0" || g1.Locations[0].Importance != "essential" ||
		g1.Locations[3].Location.PhysicalLocation.ArtifactLocation.URI != "file:///usr/local/go/src/runtime/sema.go" ||
		g1.Locations[3].Importance != "unimportant" || g1.Locations[3].NestingLevel != 3 {
		t.Errorf("deadlock goroutine 1: %+v", g1)
	}
	if g2 := dl.CodeFlows[0].ThreadFlows[1]; g2.ID != "goroutine 2 (b.Transfer) [sync.Mutex.Lock]" || len(g2.Locations) != 3 {
		t.Errorf("deadlock goroutine 2: %+v", g2)
	}
	if len(dl.Attachments) != 1 || dl.Attachments[0].ArtifactLocation.URI != "repro/depcon_account_transfer_transfer_test.go" ||
		dl.Attachments[0].ArtifactLocation.URIBaseID != sarif.SrcRoot || dl.Attachments[0].ArtifactLocation.Index != nil {
		t.Errorf("deadlock reproducer: %+v", dl.Attachments)
	}

	// The self-deadlock: no details, so located at its evidence.
	if self.RuleID != "test/self-deadlock" || self.Level != "error" || len(self.Locations) != 1 ||
		where(self.Locations[0]) != "%SRCROOT%/cache.go:30:9" || self.CodeFlows != nil || self.Attachments != nil ||
		!strings.Contains(self.Message.Text, "Cache.Put called alone") {
		t.Errorf("self-deadlock result: %+v", self)
	}
}

// TestWriteTestSARIF checks the file written for the driver, relative to
// the module of the working directory.
func TestWriteTestSARIF(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test.sarif")
	rep := testReport()
	if err := sarif.WriteTestSARIF(path, rep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(data); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	run := decode(t, data).Runs[0]
	root, _ := filepath.Abs("../..") // the depcon module
	if got := run.OriginalURIBaseIDs[sarif.SrcRoot].URI; got != "file://"+filepath.ToSlash(root)+"/" {
		t.Errorf("%%SRCROOT%% is %q, want %s", got, root)
	}
	// /src/m is outside that module: absolute URIs.
	if len(run.Results) != 3 || run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != "file:///src/m/counter.go" {
		t.Errorf("results: %+v", run.Results)
	}
}

// TestEmptyReport checks that a report without violations is a valid
// log with the rules and no results.
func TestEmptyReport(t *testing.T) {
	var buf bytes.Buffer
	rep := &report.Report{Types: []*report.TypeReport{{Package: "p", Type: "T", Violations: []*report.Violation{}}}}
	if err := sarif.FromTestReport(rep, sarif.Options{Root: "/src/m"}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"results": []`) {
		t.Errorf("want an empty results array:\n%s", buf.String())
	}
}

// TestValidateRejects checks that the validator does validate: logs that
// break the schema are rejected.
func TestValidateRejects(t *testing.T) {
	for name, log := range map[string]string{
		"version":        `{"version": "2.0.0", "runs": []}`,
		"no message":     `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "r"}]}]}`,
		"level":          `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "r", "level": "fatal", "message": {"text": "m"}}]}]}`,
		"startLine 0":    `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.go"}, "region": {"startLine": 0}}}]}]}]}`,
		"unknown field":  `{"version": "2.1.0", "runs": [], "extra": 1}`,
		"no tool":        `{"version": "2.1.0", "runs": [{"results": []}]}`,
		"attachment uri": `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "attachments": [{}]}]}]}`,
	} {
		if err := sariftest.Validate([]byte(log)); err == nil {
			t.Errorf("%s: an invalid log passed", name)
		}
	}
	if err := sariftest.Validate([]byte(`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": []}]}`)); err != nil {
		t.Errorf("a minimal log fails: %v", err)
	}
}
