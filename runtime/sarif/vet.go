package sarif

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// Rules returns one rule per analyzer: its name as id, the first line of
// its Doc as short description, the rest as full description, the whole
// Doc as help, its URL (or the pkg.go.dev page of its package) as help
// URI, and the level warning.
func Rules(analyzers []*analysis.Analyzer) []*ReportingDescriptor {
	var rules []*ReportingDescriptor
	for _, a := range analyzers {
		rules = append(rules, rule(a))
	}
	return rules
}

func rule(a *analysis.Analyzer) *ReportingDescriptor {
	doc := strings.TrimSpace(a.Doc)
	short, rest, _ := strings.Cut(doc, "\n")
	short = strings.TrimSpace(short)
	rest = strings.TrimSpace(rest)
	if rest == "" {
		rest = short
	}
	uri := a.URL
	if uri == "" {
		uri = InformationURI
	}
	return &ReportingDescriptor{
		ID:                   a.Name,
		Name:                 a.Name,
		ShortDescription:     &MultiformatMessageString{Text: short},
		FullDescription:      &MultiformatMessageString{Text: unwrap(rest)},
		Help:                 &MultiformatMessageString{Text: unwrap(doc)},
		HelpURI:              uri,
		DefaultConfiguration: &ReportingConfiguration{Level: LevelWarning},
		Properties:           Properties{"tags": []string{"concurrency"}},
	}
}

// unwrap joins the lines of each paragraph of a doc text, but those of
// indented (code) blocks: viewers wrap the text themselves.
func unwrap(doc string) string {
	paras := strings.Split(doc, "\n\n")
	for i, p := range paras {
		if strings.HasPrefix(p, "\t") || strings.HasPrefix(p, " ") {
			continue
		}
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}

// FromVet returns the log of the diagnostics of the root actions of an
// analysis graph (go/analysis/checker.Analyze of analyzers): one run whose
// rules are those of analyzers, with a result per distinct diagnostic
// (test variants of a package report the same ones) at level warning, its
// related information as related locations. An analyzer's failure on a
// package is a tool execution notification of level error, and marks the
// invocation unsuccessful; so is each package of opt.NotLoaded.
func FromVet(graph *checker.Graph, analyzers []*analysis.Analyzer, opt Options) *Log {
	root := opt.Root
	if root == "" {
		root = mainModuleDir(graph)
	}
	loc := newLocator(root)
	run := newRun(opt, Rules(analyzers), loc)
	inv := &Invocation{CommandLine: opt.CommandLine, ExecutionSuccessful: true}
	for _, f := range opt.NotLoaded {
		inv.ExecutionSuccessful = false
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, &Notification{
			Level:   LevelError,
			Message: Message{Text: "does not load: " + f},
		})
	}

	type key struct {
		rule, pos, msg string
	}
	seen := map[key]bool{}
	type item struct {
		file      string
		line, col int
		res       *Result
	}
	var items []item
	for _, act := range graph.Roots {
		fset := act.Package.Fset
		if act.Err != nil {
			inv.ExecutionSuccessful = false
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, &Notification{
				Level:   LevelError,
				Message: Message{Text: fmt.Sprintf("%s: %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)},
			})
			continue
		}
		for _, d := range act.Diagnostics {
			posn := fset.Position(d.Pos)
			k := key{act.Analyzer.Name, posn.String(), d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			idx := ruleIndex(run.Tool.Driver.Rules, act.Analyzer.Name)
			if idx < 0 {
				run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule(act.Analyzer))
				idx = len(run.Tool.Driver.Rules) - 1
			}
			res := &Result{
				RuleID:    act.Analyzer.Name,
				RuleIndex: idx,
				Level:     LevelWarning,
				Message:   Message{Text: d.Message},
				Locations: []*Location{{PhysicalLocation: posLocation(loc, fset, d.Pos, d.End)}},
			}
			if d.Category != "" {
				res.Properties = Properties{"category": d.Category}
			}
			for i, r := range d.Related {
				res.RelatedLocations = append(res.RelatedLocations, &Location{
					ID:               i + 1,
					PhysicalLocation: posLocation(loc, fset, r.Pos, r.End),
					Message:          &Message{Text: r.Message},
				})
			}
			items = append(items, item{posn.Filename, posn.Line, posn.Column, res})
		}
	}
	// The results by position, then rule.
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col),
			cmp.Compare(a.res.RuleID, b.res.RuleID))
	})
	for _, it := range items {
		run.Results = append(run.Results, it.res)
	}
	if opt.CommandLine != "" || !inv.ExecutionSuccessful {
		run.Invocations = []*Invocation{inv}
	}
	return NewLog(run)
}

// newRun returns a run of depcon with rules and no results.
func newRun(opt Options, rules []*ReportingDescriptor, loc *locator) *Run {
	version := opt.Version
	if version == "" {
		version = ToolVersion()
	}
	return &Run{
		Tool: Tool{Driver: ToolComponent{
			Name:           "depcon",
			Version:        version,
			InformationURI: InformationURI,
			Rules:          rules,
		}},
		OriginalURIBaseIDs: loc.baseIDs(),
		Results:            []*Result{},
		ColumnKind:         "utf16CodeUnits",
	}
}

// posLocation returns the physical location of the range pos..end.
func posLocation(loc *locator, fset *token.FileSet, pos, end token.Pos) *PhysicalLocation {
	p := fset.Position(pos)
	var e token.Position
	if end.IsValid() && end > pos {
		e = fset.Position(end)
	}
	return loc.location(p.Filename, p.Line, p.Column, e.Line, e.Column)
}

// mainModuleDir returns the directory of the main module of the graph's
// root packages, or "".
func mainModuleDir(graph *checker.Graph) string {
	for _, act := range graph.Roots {
		if m := act.Package.Module; m != nil && m.Main && m.Dir != "" {
			return m.Dir
		}
	}
	for _, act := range graph.Roots {
		if m := act.Package.Module; m != nil && m.Dir != "" {
			return m.Dir
		}
	}
	return ""
}
