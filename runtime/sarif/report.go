package sarif

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/stacks"
)

// TestRulePrefix prefixes the rule ids of depcon test's violations:
// "test/race", "test/deadlock"...
const TestRulePrefix = "test/"

const driverHelp = "https://pkg.go.dev/github.com/depcon/depcon/runtime/driver"

// testKinds describes the kinds of violations, in the order of the rules.
var testKinds = [...]struct{ kind, short, full string }{
	{report.KindRace, "a data race between two concurrent calls",
		"The race detector saw two concurrent calls of methods of a type meant to be safe for concurrent use access the same memory, one of them writing, without synchronisation."},
	{report.KindPanic, "a panic of concurrent calls that no sequential order reproduces",
		"Two concurrent calls panicked, while the same calls made one after the other, in either order, did not."},
	{report.KindDeadlock, "two concurrent calls blocked forever",
		"Two concurrent calls never returned, blocked on locks or channels, while the same calls made one after the other returned."},
	{report.KindFatal, "a fatal runtime error of concurrent calls",
		"Two concurrent calls made the Go runtime stop the program with a fatal error, such as concurrent map writes."},
	{report.KindNotLinearizable, "two concurrent calls whose outcome no sequential order gives",
		"Two concurrent calls returned results, or left the object in a state its read-only methods show, that neither order of the same calls made one after the other gives: an atomicity violation, such as a lost update or an inconsistent snapshot, with every access locked or atomic."},
	{report.KindSelfDeadlock, "a call that never returns when made alone",
		"A single call, made with no other goroutine running, never returned: it blocks on a lock its goroutine already holds, or on a channel nothing else uses."},
}

// TestRules returns the rules of depcon test's violations, one per kind
// ("test/" + kind), at level error.
func TestRules() []*ReportingDescriptor {
	var rules []*ReportingDescriptor
	for _, k := range testKinds {
		rules = append(rules, &ReportingDescriptor{
			ID:                   TestRulePrefix + k.kind,
			Name:                 k.kind,
			ShortDescription:     &MultiformatMessageString{Text: k.short},
			FullDescription:      &MultiformatMessageString{Text: k.full},
			Help:                 &MultiformatMessageString{Text: k.full + " The result carries the goroutines' stacks as a code flow, the seed and the command that reruns the test, and a reproducer test."},
			HelpURI:              driverHelp,
			DefaultConfiguration: &ReportingConfiguration{Level: LevelError},
			Properties:           Properties{"tags": []string{"concurrency", "dynamic"}},
		})
	}
	return rules
}

// FromTestReport returns the log of a depcon test report: one run with a
// result per violation. Its rule is "test/" + kind; its level error, or
// note when the reproducer ran and passed (an unconfirmed violation); its
// location the first frame in the module of its details (the stacks or
// the race report), or else the first position of its static evidence;
// its related locations the positions of the evidence; its code flow one
// thread flow per goroutine of the details, frames in call order; its
// properties the package, type, pair, objects, seed, count, rerun command
// and reproduced status; and its reproducer an attachment: the file when
// it was written (-o), otherwise an artifact of the run holding the
// source.
func FromTestReport(rep *report.Report, opt Options) *Log {
	root := opt.Root
	if root == "" {
		if wd, err := os.Getwd(); err == nil {
			root = FindModuleRoot(wd)
		}
	}
	loc := newLocator(root)
	run := newRun(opt, TestRules(), loc)
	if opt.CommandLine != "" {
		run.Invocations = []*Invocation{{CommandLine: opt.CommandLine, ExecutionSuccessful: true}}
	}
	if rep.Shard != "" {
		run.Properties = Properties{"shard": rep.Shard}
	}
	for _, t := range rep.Types {
		for _, v := range t.Violations {
			run.Results = append(run.Results, testResult(run, loc, t, v))
		}
	}
	return NewLog(run)
}

// WriteTestSARIF writes the SARIF log of rep (FromTestReport with the
// module enclosing the working directory as root) to the file path, or
// to standard output when path is "-".
func WriteTestSARIF(path string, rep *report.Report) error {
	return FromTestReport(rep, Options{}).WriteFile(path)
}

func testResult(run *Run, loc *locator, t *report.TypeReport, v *report.Violation) *Result {
	id := TestRulePrefix + v.Kind
	idx := ruleIndex(run.Tool.Driver.Rules, id)
	if idx < 0 {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, &ReportingDescriptor{
			ID: id, Name: v.Kind, ShortDescription: &MultiformatMessageString{Text: v.Kind},
			HelpURI: driverHelp, DefaultConfiguration: &ReportingConfiguration{Level: LevelError}})
		idx = len(run.Tool.Driver.Rules) - 1
	}
	single := v.Kind == report.KindSelfDeadlock || v.Pair[1] == ""
	what := fmt.Sprintf("%s.%s ∥ %s.%s", t.Type, v.Pair[0], t.Type, v.Pair[1])
	if single {
		what = fmt.Sprintf("%s.%s called alone", t.Type, v.Pair[0])
	} else if v.Objects == 2 {
		what += " on two objects"
	}
	level := LevelError
	text := fmt.Sprintf("%s in %s: %s", v.Kind, what, v.Message)
	switch {
	case v.Reproduced == report.ReproNo:
		level = LevelNote
		text += " (unconfirmed: its reproducer passed)"
	case v.Question != "":
		level = LevelWarning
		text += " (a contract question: " + v.Question + ")"
	case v.Known:
		level = LevelNote
		text += " (known: in the baseline)"
	}
	if v.Rerun != "" {
		text += ". Rerun: " + v.Rerun
	}
	res := &Result{RuleID: id, RuleIndex: idx, Level: level, Message: Message{Text: text}}

	threads := threads(v.Stacks)
	if fr := firstUserFrame(loc, threads); fr != nil {
		res.Locations = []*Location{{PhysicalLocation: loc.location(fr.File, fr.Line, 0, 0, 0),
			Message: &Message{Text: fr.Func}}}
	}
	for _, e := range v.Evidence {
		for _, p := range []string{e.Pos1, e.Pos2} {
			pos, ok := load.ParsePosition(p)
			file, line, col := pos.Filename, pos.Line, pos.Column
			if !ok {
				continue
			}
			pl := loc.location(file, line, col, 0, 0)
			if res.Locations == nil {
				res.Locations = []*Location{{PhysicalLocation: pl, Message: &Message{Text: e.Text}}}
			}
			res.RelatedLocations = append(res.RelatedLocations, &Location{ID: len(res.RelatedLocations) + 1,
				PhysicalLocation: pl, Message: &Message{Text: fmt.Sprintf("[%s] %s", e.Kind, e.Text)}})
		}
	}
	if cf := codeFlow(loc, threads); cf != nil {
		res.CodeFlows = []*CodeFlow{cf}
	}
	res.Properties = Properties{
		"package":    t.Package,
		"type":       t.Type,
		"pair":       v.Pair,
		"objects":    v.Objects,
		"seed":       v.Seed,
		"count":      v.Count,
		"reproduced": v.Reproduced,
	}
	if v.Rerun != "" {
		res.Properties["rerun"] = v.Rerun
	}
	if v.SelfArg {
		res.Properties["selfArg"] = true
	}
	if v.ReproOutput != "" {
		res.Properties["reproOutput"] = v.ReproOutput
	}
	if len(v.Evidence) > 0 {
		res.Properties["evidence"] = evidenceProps(v.Evidence)
	}
	if a := reproducer(run, loc, t, v); a != nil {
		res.Attachments = []*Attachment{a}
	}
	return res
}

func evidenceProps(ev []deps.Evidence) []map[string]string {
	var out []map[string]string
	for _, e := range ev {
		out = append(out, map[string]string{"kind": e.Kind, "text": e.Text, "loc1": e.Loc1, "loc2": e.Loc2,
			"pos1": e.Pos1, "pos2": e.Pos2})
	}
	return out
}

// reproducer returns the attachment of v's reproducer, adding an artifact
// holding its source to the run when it was not written to a file.
func reproducer(run *Run, loc *locator, t *report.TypeReport, v *report.Violation) *Attachment {
	desc := &Message{Text: fmt.Sprintf("reproducer test of the %s, to add to package %s", v.Kind, t.Package)}
	switch {
	case v.Reproducer == "":
		return nil
	case report.IsReproducerPath(v.Reproducer):
		path := v.Reproducer
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return &Attachment{Description: desc, ArtifactLocation: loc.artifact(path)}
	}
	i := len(run.Artifacts)
	al := &ArtifactLocation{URI: reproducerName(t, v), Index: &i}
	run.Artifacts = append(run.Artifacts, &Artifact{
		Location: &ArtifactLocation{URI: al.URI},
		Contents: &ArtifactContent{Text: v.Reproducer},
		Roles:    []string{"attachment"},
	})
	return &Attachment{Description: desc, ArtifactLocation: al}
}

// reproducerName names a reproducer given as source, as depcon test -o
// would: depcon_type_m1_m2_test.go.
func reproducerName(t *report.TypeReport, v *report.Violation) string {
	parts := []string{"depcon", t.Type, v.Pair[0]}
	if v.Kind != report.KindSelfDeadlock && v.Pair[1] != "" {
		parts = append(parts, v.Pair[1])
	}
	return strings.ToLower(strings.Join(parts, "_")) + "_test.go"
}

// A thread is a goroutine of a violation, frames innermost first.
type thread struct {
	name   string
	frames []stacks.Frame
}

// raceAddress is the address in a race access's header.
var raceAddress = regexp.MustCompile(` at 0x[0-9a-f]+`)

// threads returns the goroutines of a violation that have frames, named
// as the report shows them: "goroutine 1 (a.Put) [select]", "Previous
// write by goroutine 8", "goroutine 7 [running]".
func threads(ss []stacks.Stack) []thread {
	var out []thread
	for _, s := range ss {
		if len(s.Frames) == 0 {
			continue
		}
		name := s.Header
		switch {
		case s.Label != "" && s.State != "":
			name = s.Label + " [" + s.State + "]"
		case s.Label != "":
			name = s.Label
		case s.Access != "":
			name = raceAddress.ReplaceAllString(s.Header, "")
		}
		out = append(out, thread{name: name, frames: s.Frames})
	}
	return out
}

// firstUserFrame returns the innermost frame of the first thread that is
// in the module (below the root), or else in code outside the standard
// library.
func firstUserFrame(loc *locator, threads []thread) *stacks.Frame {
	for _, user := range []func(stacks.Frame) bool{
		func(f stacks.Frame) bool { _, ok := loc.under(f.File); return ok },
		func(f stacks.Frame) bool { return !f.Std() },
	} {
		for _, t := range threads {
			for i := range t.frames {
				if user(t.frames[i]) {
					return &t.frames[i]
				}
			}
		}
	}
	return nil
}

// codeFlow returns the code flow of the threads: one thread flow per
// goroutine, frames in call order (outermost first, nesting level the
// depth), frames in the module essential (the innermost) or important,
// the others unimportant.
func codeFlow(loc *locator, threads []thread) *CodeFlow {
	if len(threads) == 0 {
		return nil
	}
	cf := &CodeFlow{Message: &Message{Text: fmt.Sprintf("%d goroutines", len(threads))}}
	if len(threads) == 1 {
		cf.Message.Text = "1 goroutine"
	}
	for _, t := range threads {
		tf := &ThreadFlow{ID: t.name, Message: &Message{Text: t.name}}
		innermost := true
		var locs []*ThreadFlowLocation
		for _, f := range t.frames { // innermost first
			imp := "unimportant"
			if _, ok := loc.under(f.File); ok || !f.Std() {
				imp = "important"
				if innermost {
					imp = "essential"
					innermost = false
				}
			}
			locs = append(locs, &ThreadFlowLocation{
				Location:   &Location{PhysicalLocation: loc.location(f.File, f.Line, 0, 0, 0), Message: &Message{Text: f.Func}},
				Importance: imp,
			})
		}
		for i, j := 0, len(locs)-1; i < j; i, j = i+1, j-1 {
			locs[i], locs[j] = locs[j], locs[i]
		}
		for i, l := range locs {
			l.NestingLevel = i
		}
		tf.Locations = locs
		cf.ThreadFlows = append(cf.ThreadFlows, tf)
	}
	return cf
}
