package driver

import (
	"fmt"
	"io"
	"slices"
)

// Reach says how many of the types selected were tested with a working
// object: an object its constructor built, or the zero value of a type
// without constructors, on which some method could be called. A type
// tested on the zero value while it has constructors, or whose every
// call panicked in the probes, was not tested (TypeReport.Skipped).
type Reach struct {
	Tested int `json:"tested"`
	Total  int `json:"total"`
	// NotTested lists the others with the reason.
	NotTested []NotTested `json:"not_tested,omitempty"`
}

// NotTested is a type selected but not tested with a working object.
type NotTested struct {
	Package string `json:"package"`
	Type    string `json:"type"`
	Why     string `json:"why"`
}

// reachOf returns the reach of the types of a report: a type was tested
// unless it was skipped (testType skips one where no test ran).
func reachOf(types []*TypeReport) *Reach {
	r := &Reach{}
	for _, t := range types {
		r.Total++
		if t.Skipped != "" {
			r.NotTested = append(r.NotTested, NotTested{Package: t.Package, Type: t.Type, Why: t.Skipped})
			continue
		}
		r.Tested++
	}
	slices.SortStableFunc(r.NotTested, func(a, b NotTested) int {
		if a.Package != b.Package {
			if a.Package < b.Package {
				return -1
			}
			return 1
		}
		if a.Type < b.Type {
			return -1
		}
		if a.Type > b.Type {
			return 1
		}
		return 0
	})
	return r
}

// writeText writes the reach line of a text report.
func (r *Reach) writeText(w io.Writer) {
	if r == nil || r.Total == 0 {
		return
	}
	fmt.Fprintf(w, "reach: tested with a working object: %d of %d %s with synchronisation", r.Tested, r.Total,
		plural(r.Total, "type", "types"))
	if n := len(r.NotTested); n > 0 {
		fmt.Fprintf(w, " (%d not tested, each with its reason above)", n)
	}
	fmt.Fprintln(w)
}
