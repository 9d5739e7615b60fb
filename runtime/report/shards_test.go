package report

import (
	"slices"
	"strings"
	"testing"
)

// TestCheckShards checks the warnings about the shards of the reports
// to merge: a report given twice, shards of runs of different sizes,
// shards missing.
func TestCheckShards(t *testing.T) {
	files := []string{"a", "b", "c", "d", "./d"}
	keep, warnings := CheckShards(files, []string{"1/2", "1/3", "2/3", "", ""})
	if !slices.Equal(keep, []int{0, 1, 2, 3}) {
		t.Errorf("keep %v", keep)
	}
	want := []string{
		"the report ./d given twice (d and ./d): counted once, from d",
		"the reports are shards of runs of different sizes (of 2, of 3)",
		"shard 2/2 is missing: its types are not in the report",
		"shard 3/3 is missing: its types are not in the report",
	}
	if !slices.Equal(warnings, want) {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
	_, warnings = CheckShards([]string{"x"}, []string{"2/4"})
	if want := []string{"shards 1/4, 3/4, 4/4 are missing: their types are not in the report"}; !slices.Equal(warnings, want) {
		t.Errorf("warnings %q, want %q", warnings, want)
	}
}
