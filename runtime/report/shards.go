package report

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// CheckShards checks the shards (Report.Shard: "K/N", "" for a whole
// run) of the reports in files, before they are merged: it returns the
// indexes of the reports to merge (the first of those of one shard, or
// of one file) and a warning for each shard given twice, each shard
// missing of N, and shards of different N.
func CheckShards(files, shards []string) (keep []int, warnings []string) {
	first := map[string]int{}       // shard, or file of a whole run → index
	total := map[int]map[int]bool{} // N → Ks
	for i, sh := range shards {
		key := sh
		if key == "" {
			key = "file " + filepath.Clean(files[i])
		}
		if j, ok := first[key]; ok {
			what := "shard " + sh
			if sh == "" {
				what = "the report " + files[i]
			}
			warnings = append(warnings, fmt.Sprintf("%s given twice (%s and %s): counted once, from %s",
				what, files[j], files[i], files[j]))
			continue
		}
		first[key] = i
		keep = append(keep, i)
		var k, n int
		if _, err := fmt.Sscanf(sh, "%d/%d", &k, &n); err == nil && n >= 1 {
			if total[n] == nil {
				total[n] = map[int]bool{}
			}
			total[n][k] = true
		}
	}
	ns := slices.Sorted(maps.Keys(total))
	if len(ns) > 1 {
		var runs []string
		for _, n := range ns {
			runs = append(runs, fmt.Sprintf("of %d", n))
		}
		warnings = append(warnings, fmt.Sprintf("the reports are shards of runs of different sizes (%s)", strings.Join(runs, ", ")))
	}
	for _, n := range ns {
		var missing []string
		for k := 1; k <= n; k++ {
			if !total[n][k] {
				missing = append(missing, fmt.Sprintf("%d/%d", k, n))
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			warnings = append(warnings, fmt.Sprintf("shard %s is missing: its types are not in the report", missing[0]))
		default:
			warnings = append(warnings, fmt.Sprintf("shards %s are missing: their types are not in the report", strings.Join(missing, ", ")))
		}
	}
	return keep, warnings
}
