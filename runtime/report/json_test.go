package report

import (
	"bytes"
	"os"
	"testing"
)

// TestJSONRoundTrip reads a report written by depcon test -json (on
// testdata/corpus/account, paths shortened) and writes it again: the
// output is the file, byte for byte, so reports written before stay
// readable and -merge keeps every field, named as it was.
func TestJSONRoundTrip(t *testing.T) {
	data, err := os.ReadFile("testdata/account.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ReadJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Types) == 0 || len(rep.Types[0].Violations) == 0 || len(rep.Diagnostics) == 0 || rep.Reach == nil {
		t.Fatalf("the report lacks types, violations, diagnostics or reach: %+v", rep)
	}
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), data) {
		t.Errorf("written again, the report differs:\n%s", b.String())
	}
}
