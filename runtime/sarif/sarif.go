// Package sarif writes depcon's findings as SARIF 2.1.0 logs.
//
// SARIF, the Static Analysis Results Interchange Format, is the format
// GitHub code scanning and other code-review tools import.
//
// It holds the part of the SARIF object model depcon uses (a Log of one
// Run, its Tool and rules, Results with locations, related locations,
// code flows and attachments) and two conversions:
//
//   - FromVet, from the analysis graph of depcon vet (go/analysis/checker):
//     one rule per analyzer of the suite, one result per diagnostic, with
//     the diagnostic's related information as related locations;
//   - FromTestReport, from a report of depcon test: one result per
//     violation (rule "test/" + kind), its two goroutines as the thread
//     flows of a code flow, and its reproducer as an attachment.
//
// Paths under the module root are written relative to the uriBaseId
// %SRCROOT%, whose absolute value the run's originalUriBaseIds records;
// other paths (the standard library, the module cache) are absolute file
// URIs. Columns are counted in UTF-16 code units, SARIF's default.
package sarif

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Version is the SARIF version written, and SchemaURI the URI of its
// official JSON schema (OASIS, errata 01).
const (
	Version   = "2.1.0"
	SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

// SrcRoot is the uriBaseId of the paths relative to the module root.
const SrcRoot = "%SRCROOT%"

// A Log is a SARIF log file.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []*Run `json:"runs"`
}

// A Run is one invocation of one tool.
type Run struct {
	Tool               Tool                         `json:"tool"`
	Invocations        []*Invocation                `json:"invocations,omitempty"`
	OriginalURIBaseIDs map[string]*ArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Artifacts          []*Artifact                  `json:"artifacts,omitempty"`
	Results            []*Result                    `json:"results"`
	ColumnKind         string                       `json:"columnKind,omitempty"`
	Properties         Properties                   `json:"properties,omitempty"`
}

// A Tool describes the analysis tool.
type Tool struct {
	Driver ToolComponent `json:"driver"`
}

// A ToolComponent is the tool's driver (or an extension).
type ToolComponent struct {
	Name           string                 `json:"name"`
	Version        string                 `json:"version,omitempty"`
	InformationURI string                 `json:"informationUri,omitempty"`
	Rules          []*ReportingDescriptor `json:"rules,omitempty"`
}

// A ReportingDescriptor describes a rule.
type ReportingDescriptor struct {
	ID                   string                    `json:"id"`
	Name                 string                    `json:"name,omitempty"`
	ShortDescription     *MultiformatMessageString `json:"shortDescription,omitempty"`
	FullDescription      *MultiformatMessageString `json:"fullDescription,omitempty"`
	Help                 *MultiformatMessageString `json:"help,omitempty"`
	HelpURI              string                    `json:"helpUri,omitempty"`
	DefaultConfiguration *ReportingConfiguration   `json:"defaultConfiguration,omitempty"`
	Properties           Properties                `json:"properties,omitempty"`
}

// A ReportingConfiguration is a rule's default configuration.
type ReportingConfiguration struct {
	Level string `json:"level,omitempty"`
}

// A MultiformatMessageString is a text with an optional Markdown form.
type MultiformatMessageString struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// A Message is a message of a result, location or flow.
type Message struct {
	Text string `json:"text"`
}

// An Invocation describes how the tool ran.
type Invocation struct {
	CommandLine                string          `json:"commandLine,omitempty"`
	ExecutionSuccessful        bool            `json:"executionSuccessful"`
	ToolExecutionNotifications []*Notification `json:"toolExecutionNotifications,omitempty"`
}

// A Notification is a condition met while the tool ran (an analyzer's
// failure on a package).
type Notification struct {
	Level     string      `json:"level,omitempty"`
	Message   Message     `json:"message"`
	Locations []*Location `json:"locations,omitempty"`
}

// Levels of results and notifications.
const (
	LevelError   = "error"
	LevelWarning = "warning"
	LevelNote    = "note"
)

// A Result is one finding.
type Result struct {
	RuleID           string        `json:"ruleId"`
	RuleIndex        int           `json:"ruleIndex"`
	Level            string        `json:"level,omitempty"`
	Message          Message       `json:"message"`
	Locations        []*Location   `json:"locations,omitempty"`
	RelatedLocations []*Location   `json:"relatedLocations,omitempty"`
	CodeFlows        []*CodeFlow   `json:"codeFlows,omitempty"`
	Attachments      []*Attachment `json:"attachments,omitempty"`
	Properties       Properties    `json:"properties,omitempty"`
}

// A Location is a place in an artifact. ID numbers the related locations
// of a result (from 1; 0 is omitted).
type Location struct {
	ID               int               `json:"id,omitempty"`
	PhysicalLocation *PhysicalLocation `json:"physicalLocation,omitempty"`
	Message          *Message          `json:"message,omitempty"`
}

// A PhysicalLocation is a region of a file.
type PhysicalLocation struct {
	ArtifactLocation *ArtifactLocation `json:"artifactLocation"`
	Region           *Region           `json:"region,omitempty"`
}

// An ArtifactLocation is a file: a URI, relative to URIBaseID when that
// is set, or the Index of an artifact of the run.
type ArtifactLocation struct {
	URI         string   `json:"uri,omitempty"`
	URIBaseID   string   `json:"uriBaseId,omitempty"`
	Index       *int     `json:"index,omitempty"`
	Description *Message `json:"description,omitempty"`
}

// A Region is a range of lines and columns (1-based; EndColumn is the
// column after the region's last character). Zero fields are omitted.
type Region struct {
	StartLine   int `json:"startLine,omitempty"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// A CodeFlow is how execution reached a result: one thread flow per
// thread (goroutine) involved.
type CodeFlow struct {
	Message     *Message      `json:"message,omitempty"`
	ThreadFlows []*ThreadFlow `json:"threadFlows"`
}

// A ThreadFlow is the locations one thread visited, in order.
type ThreadFlow struct {
	ID        string                `json:"id,omitempty"`
	Message   *Message              `json:"message,omitempty"`
	Locations []*ThreadFlowLocation `json:"locations"`
}

// A ThreadFlowLocation is one step of a thread flow. Importance is
// "essential", "important" or "unimportant".
type ThreadFlowLocation struct {
	Location     *Location `json:"location,omitempty"`
	NestingLevel int       `json:"nestingLevel,omitempty"`
	Importance   string    `json:"importance,omitempty"`
}

// An Attachment is a file relevant to a result.
type Attachment struct {
	Description      *Message          `json:"description,omitempty"`
	ArtifactLocation *ArtifactLocation `json:"artifactLocation"`
}

// An Artifact is a file the run refers to, with its contents when the
// file does not exist on disk.
type Artifact struct {
	Location *ArtifactLocation `json:"location,omitempty"`
	Contents *ArtifactContent  `json:"contents,omitempty"`
	Roles    []string          `json:"roles,omitempty"`
}

// An ArtifactContent is the text of an artifact.
type ArtifactContent struct {
	Text string `json:"text"`
}

// Properties is a property bag.
type Properties map[string]any

// NewLog returns a log of the runs.
func NewLog(runs ...*Run) *Log {
	if runs == nil {
		runs = []*Run{}
	}
	return &Log{Schema: SchemaURI, Version: Version, Runs: runs}
}

// Write writes the log as indented JSON.
func (l *Log) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(l)
}

// WriteFile writes the log to the file path, or to standard output when
// path is "" or "-".
func (l *Log) WriteFile(path string) error {
	if path == "" || path == "-" {
		return l.Write(os.Stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := l.Write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// ruleIndex returns the index of the rule id in rules, or -1.
func ruleIndex(rules []*ReportingDescriptor, id string) int {
	for i, r := range rules {
		if r.ID == id {
			return i
		}
	}
	return -1
}
