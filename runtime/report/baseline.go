package report

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// A Baseline lists the violations a project knows of and has accepted
// for now: with -baseline, a run reports them as known and they do not
// decide its exit status, so that CI fails on new ones only (as
// golangci-lint's new-from-rev does). -write-baseline writes the
// baseline of a run: its violations that count.
type Baseline struct {
	Version    int             `json:"version"`
	Violations []BaselineEntry `json:"violations"`
}

// A BaselineEntry identifies a violation across runs and edits of the
// code: its type, its kind and its pair (in either order), not its
// lines.
type BaselineEntry struct {
	Package string    `json:"package"`
	Type    string    `json:"type"`
	Kind    string    `json:"kind"`
	Pair    [2]string `json:"pair"`
}

// baselineVersion is the version of the baseline format.
const baselineVersion = 1

// Baseline returns the baseline of the report: an entry for each
// violation that counts (see TypeReport.Confirmed), known ones included.
func (r *Report) Baseline() *Baseline {
	b := &Baseline{Version: baselineVersion, Violations: []BaselineEntry{}}
	for _, t := range r.Types {
		for _, v := range t.Violations {
			if v.Reproduced == ReproNo {
				continue
			}
			b.Violations = append(b.Violations, BaselineEntry{Package: t.Package, Type: t.Type, Kind: v.Kind,
				Pair: sortedPair(v.Pair)})
		}
	}
	return b
}

// ReadBaseline reads a baseline file.
func ReadBaseline(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if b.Version != baselineVersion {
		return nil, fmt.Errorf("%s: baseline version %d, want %d", path, b.Version, baselineVersion)
	}
	return &b, nil
}

// WriteBaseline writes the baseline b to path.
func WriteBaseline(path string, b *Baseline) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Apply marks the violations of r that b lists as known (under their
// pair or one they were also seen as), and returns how many.
func (b *Baseline) Apply(r *Report) int {
	n := 0
	for _, t := range r.Types {
		for _, v := range t.Violations {
			pairs := [][2]string{sortedPair(v.Pair)}
			for _, p := range v.AlsoSeenAs {
				pairs = append(pairs, sortedPair(p))
			}
			v.Known = slices.ContainsFunc(b.Violations, func(e BaselineEntry) bool {
				return e.Package == t.Package && e.Type == t.Type && e.Kind == v.Kind && slices.Contains(pairs, sortedPair(e.Pair))
			})
			if v.Known {
				n++
			}
		}
	}
	return n
}

// sortedPair returns p with its methods in order.
func sortedPair(p [2]string) [2]string {
	if p[1] != "" && p[1] < p[0] {
		p[0], p[1] = p[1], p[0]
	}
	return p
}
