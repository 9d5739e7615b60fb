package report

import "slices"

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

// ReachOf returns the reach of the types of a report: a type was tested
// unless it was skipped (the driver skips one where no test ran).
func ReachOf(types []*TypeReport) *Reach {
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
