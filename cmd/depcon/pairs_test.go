package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestPairsUnexported checks that depcon pairs prints the exported view by
// default and the full view, unexported types and methods included, with
// -unexported.
func TestPairsUnexported(t *testing.T) {
	type plan struct {
		Type       string   `json:"type"`
		Exported   bool     `json:"exported"`
		Methods    []string `json:"methods"`
		Unexported []string `json:"unexported_methods"`
		PairsTotal int      `json:"pairs_total"`
		PairsPC    int      `json:"pairs_pc"`
	}
	pairs := func(args ...string) []plan {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args = append(append([]string{"depcon", "pairs", "-json"}, args...), "../../testdata/src/unexported")
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
		}
		var out []plan
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("%v\n%s", err, stdout.String())
		}
		return out
	}
	exp := pairs()
	if len(exp) != 1 || exp[0].Type != "Store" || !slices.Equal(exp[0].Methods, []string{"Get", "Put"}) ||
		exp[0].PairsTotal != 3 || exp[0].PairsPC != 0 {
		t.Errorf("exported view: %+v", exp)
	}
	full := pairs("-unexported")
	if len(full) != 2 || full[0].Type != "Store" || full[1].Type != "worker" || full[1].Exported ||
		!slices.Equal(full[0].Unexported, []string{"put"}) || full[0].PairsTotal != 6 || full[0].PairsPC != 3 {
		t.Errorf("full view: %+v", full)
	}
}

// TestPairsTruncated checks that depcon pairs counts, per type, the
// methods whose summaries were cut at their size limit ("truncated" in
// the JSON, left out when there are none; a note in the text), and that
// their pairs are kept.
func TestPairsTruncated(t *testing.T) {
	pkgs := []string{"../../testdata/src/truncated", "../../testdata/src/unexported"}
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"depcon", "pairs", "-json"}, pkgs...), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out []map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	want := map[string]float64{"T": 1, "U": 2, "V": 1, "W": 1, "Store": 0}
	wantMethods := map[string]string{"T": "[Big]", "U": "[Big Reset]", "V": "[Big]", "W": "[AB]"}
	for _, typ := range out {
		name, _ := typ["type"].(string)
		n, ok := want[name]
		if !ok {
			t.Errorf("unexpected type %s", name)
			continue
		}
		delete(want, name)
		got, has := typ["truncated"]
		if n == 0 {
			if has {
				t.Errorf("%s: truncated %v, want it left out", name, got)
			}
			continue
		}
		if got != n {
			t.Errorf("%s: truncated %v, want %v", name, got, n)
		}
		if ms := fmt.Sprint(typ["truncated_methods"]); ms != wantMethods[name] {
			t.Errorf("%s: truncated methods %s, want %s", name, ms, wantMethods[name])
		}
	}
	if len(want) > 0 {
		t.Errorf("types missing: %v", want)
	}
	if !strings.Contains(stdout.String(), `"text": "the summary of Big was cut at its size limit: what it lost may conflict with Tail"`) {
		t.Errorf("no evidence of the cut summary in\n%s", stdout.String())
	}

	stdout.Reset()
	if code := run(append([]string{"depcon", "pairs"}, pkgs...), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	text := stdout.String()
	for _, note := range []string{
		"truncated (1): the summary of Big was cut at its size limit: all its pairs are kept",
		"truncated (2): the summaries of Big, Reset were cut at their size limit: all their pairs are kept",
	} {
		if !strings.Contains(text, note) {
			t.Errorf("no note %q in\n%s", note, text)
		}
	}
	if strings.Count(text, "truncated (") != 4 {
		t.Errorf("%d notes of cut summaries, want 4:\n%s", strings.Count(text, "truncated ("), text)
	}
}
