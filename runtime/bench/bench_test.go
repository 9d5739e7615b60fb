package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestMainUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-seeds", "0", corpusDir},
		{"-budget", "-1s", corpusDir},
		{"-modes", "dependent,sometimes", corpusDir},
		{"-modes", "all,all", corpusDir},
		{"-subjects", "meter,nosuch", corpusDir},
		{"-nosuchflag", corpusDir},
		{corpusDir, corpusDir},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(args, &stdout, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("Main(%q) = %d with stderr %q, want 2 and a message", args, code, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "usage: depcon bench") {
		t.Errorf("Main(-h) = %d with %q, want 0 and the usage", code, stderr.String())
	}
}

// TestMainEndToEnd runs depcon bench on a buggy subject whose race every
// mode finds in its first tests (meter) and a control (kvstore), with a
// short budget and one seed, as text and as JSON.
func TestMainEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the children of two subjects six times")
	}
	args := []string{"-budget", "3s", "-seeds", "1", "-subjects", "meter,kvstore", corpusDir}
	var stdout, stderr bytes.Buffer
	if code := Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("depcon bench %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	out := stdout.String()
	for _, want := range [][]string{
		{"meter", "Meter", "lost-update", "1", "6", "21"},
		{"kvstore", "Store", "none", "1", "6", "21"},
		{"meter", "1/1"},
		{"kvstore", "Store", "0", "0", "0"},
		{"all", "1"},
		{"false", "alarms", "0"},
	} {
		if !hasRow(out, want) {
			t.Errorf("no line starting with %q in the table:\n%s", want, out)
		}
	}
	for _, want := range []string{"machine: ", "budget 3s per type and run", "seeds 1..1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the header lacks %q:\n%s", want, out)
		}
	}

	stdout.Reset()
	if code := Main(append([]string{"-json"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("depcon bench -json: exit %d\n%s", code, stderr.String())
	}
	var doc struct {
		Subjects []map[string]json.RawMessage `json:"subjects"`
		Summary  map[string]json.RawMessage   `json:"summary"`
	}
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("decoding the JSON: %v", err)
	}
	if len(doc.Subjects) != 2 {
		t.Fatalf("%d subjects, want 2", len(doc.Subjects))
	}
	for _, s := range doc.Subjects {
		checkKeys(t, "subject", s, "name", "type", "kind", "objects", "methods", "pairs_total",
			"pairs_pc", "pairs_d", "modes", "false_alarms")
	}
	checkKeys(t, "summary", doc.Summary, "reduction_mean", "success_rate_mean", "fdt_speedup_vs_all",
		"fdt_speedup_vs_random", "tests_reduction_vs_all")
	var kvstore struct {
		Kind        string `json:"kind"`
		FalseAlarms int    `json:"false_alarms"`
	}
	var meter struct {
		Modes map[string]struct {
			SuccessRate float64  `json:"success_rate"`
			FDT         *float64 `json:"fdt_s"`
			Tests       *float64 `json:"tests"`
		} `json:"modes"`
	}
	if err := json.Unmarshal(mustJSON(t, doc.Subjects[0]), &kvstore); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(mustJSON(t, doc.Subjects[1]), &meter); err != nil {
		t.Fatal(err)
	}
	if kvstore.Kind != "none" || kvstore.FalseAlarms != 0 {
		t.Errorf("kvstore: kind %q, %d false alarms; want none and 0", kvstore.Kind, kvstore.FalseAlarms)
	}
	if len(meter.Modes) != 3 {
		t.Errorf("meter: modes %v, want dependent, all and random", meter.Modes)
	}
	if dep := meter.Modes[ModeDependent]; dep.SuccessRate != 1 || dep.FDT == nil || dep.Tests == nil || *dep.Tests < 1 {
		t.Errorf("meter, dependent: %+v, want the race found", dep)
	}
}

// hasRow reports whether a line of out starts with the fields.
func hasRow(out string, fields []string) bool {
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) >= len(fields) && strings.Join(f[:len(fields)], " ") == strings.Join(fields, " ") {
			return true
		}
	}
	return false
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
