package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/depcon/depcon/runtime/testgen"
)

// miniCorpus returns a corpus of two subjects of the corpus, in a module
// of their own: meter, whose race every mode finds in its first tests
// (on any pair with Mark, all listed as equivalent), and the control
// kvstore.
func miniCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module benchcorpus\n\ngo 1.22\n")
	for _, pkg := range []string{"kvstore", "meter"} {
		data, err := os.ReadFile(filepath.Join(corpusDir, pkg, pkg+".go"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, pkg, pkg+".go"), string(data))
	}
	writeFile(t, filepath.Join(dir, TruthFile), `[
  {"name": "kvstore", "type": "Store", "bug": "none", "kinds": [], "pair": [], "objects": 1, "note": ""},
  {"name": "meter", "type": "Meter", "bug": "lost-update", "kinds": ["race"], "pair": ["Mark", "Mark"], "objects": 1, "note": "",
   "equivalent": [["Count", "Mark"], ["Mark", "Reset"], ["Mark", "Snapshot"]]}
]`)
	return dir
}

// TestMeasureEndToEnd runs the bench on miniCorpus with a short budget,
// one seed and one scheduler, and checks its report as text and as JSON.
func TestMeasureEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the children of two subjects in three modes")
	}
	opt := Options{Dir: miniCorpus(t), Budget: 3 * time.Second, Seeds: 1, Pairs: []string{testgen.PairsDependent, testgen.PairsAll, testgen.PairsRandom},
		Scheds: []string{SchedStress}, Subjects: []string{"meter", "kvstore"}, Parallel: 1}
	subjects, err := LoadTruth(opt.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if subjects, err = SelectSubjects(subjects, opt.Subjects); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	start := time.Now()
	rep, err := Measure(t.Context(), opt, subjects, &log)
	if err != nil {
		t.Fatalf("Measure: %v\n%s", err, log.String())
	}
	var text bytes.Buffer
	rep.WriteHeader(&text, opt, start)
	rep.WriteText(&text)
	out := text.String()
	for _, want := range [][]string{
		{"meter", "Meter", "lost-update", "-", "exception", "1", "6", "21"},
		{"kvstore", "Store", "none", "-", "all", "1", "6", "21"},
		{"meter", "1/1"},
		{"kvstore", "Store", "0", "0", "0", "0"},
		{"stress", "dependent", "ordinary", "1", "100%"},
		{"all", "1"},
		{"false", "alarms", "0"},
	} {
		if !hasRow(out, want) {
			t.Errorf("no line starting with %q in the table:\n%s", want, out)
		}
	}
	for _, want := range []string{"machine: ", "budget 3s per type and run", "seeds 1..1", "schedulers stress;"} {
		if !strings.Contains(out, want) {
			t.Errorf("the header lacks %q:\n%s", want, out)
		}
	}

	var doc struct {
		Subjects []map[string]json.RawMessage `json:"subjects"`
		Summary  map[string]json.RawMessage   `json:"summary"`
	}
	dec := json.NewDecoder(bytes.NewReader(mustJSON(t, rep)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("decoding the JSON: %v", err)
	}
	if len(doc.Subjects) != 2 {
		t.Fatalf("%d subjects, want 2", len(doc.Subjects))
	}
	for _, s := range doc.Subjects {
		checkKeys(t, "subject", s, subjectKeys...)
	}
	checkKeys(t, "summary", doc.Summary, summaryKeys...)
	var kvstore struct {
		Kind           string `json:"kind"`
		FalseAlarms    int    `json:"false_alarms"`
		PairsDependent int    `json:"pairs_dependent"`
	}
	var meter struct {
		Cost float64 `json:"cost_s"`
		Runs map[string]map[string]struct {
			SuccessRate float64  `json:"success_rate"`
			FDT         *float64 `json:"fdt_s"`
			FDTTotal    *float64 `json:"fdt_total_s"`
			Tests       *float64 `json:"tests"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(mustJSON(t, doc.Subjects[0]), &kvstore); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(mustJSON(t, doc.Subjects[1]), &meter); err != nil {
		t.Fatal(err)
	}
	if kvstore.Kind != "none" || kvstore.FalseAlarms != 0 || kvstore.PairsDependent != 0 {
		t.Errorf("kvstore: kind %q, %d false alarms, %d dependent pairs; want none, 0 and 0", kvstore.Kind,
			kvstore.FalseAlarms, kvstore.PairsDependent)
	}
	if len(meter.Runs) != 1 || len(meter.Runs[SchedStress]) != 3 {
		t.Errorf("meter: runs %v, want stress with dependent, all and random", meter.Runs)
	}
	dep := meter.Runs[SchedStress][testgen.PairsDependent]
	if dep.SuccessRate != 1 || dep.FDT == nil || dep.Tests == nil || *dep.Tests < 1 {
		t.Errorf("meter, dependent: %+v, want the race found", dep)
	} else if meter.Cost <= 0 || dep.FDTTotal == nil || !near(*dep.FDTTotal, *dep.FDT+meter.Cost) {
		t.Errorf("meter, dependent: FDT %v, total %v, cost %v; want the total to add the cost", *dep.FDT, dep.FDTTotal, meter.Cost)
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
