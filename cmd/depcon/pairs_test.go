package main

import (
	"bytes"
	"encoding/json"
	"slices"
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
