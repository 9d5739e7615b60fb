package bench

import (
	"math"
	"slices"
)

// An Agg aggregates per-subject values (ratios, times) over the subjects
// where they are defined.
type Agg struct {
	N int `json:"n"` // values aggregated
	// GeoMean is the geometric mean, the aggregate of ratios: the n-th
	// root of their product (nil unless every value is positive);
	// Median the middle value (the mean of the two middle ones for an
	// even n); Mean the arithmetic mean. All nil when N is 0.
	GeoMean *float64 `json:"geomean"`
	Median  *float64 `json:"median"`
	Mean    *float64 `json:"mean"`
}

// aggregateValues aggregates vs.
func aggregateValues(vs []float64) *Agg {
	return &Agg{N: len(vs), GeoMean: geoMean(vs), Median: median(vs), Mean: arithMean(vs)}
}

// arithMean returns the arithmetic mean of vs, nil when vs is empty.
func arithMean(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	var sum float64
	for _, v := range vs {
		sum += v
	}
	return ptr(sum / float64(len(vs)))
}

// geoMean returns the geometric mean of vs, exp of the mean of the
// logarithms; nil when vs is empty or holds a value that is not positive.
func geoMean(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	var sum float64
	for _, v := range vs {
		if v <= 0 {
			return nil
		}
		sum += math.Log(v)
	}
	return ptr(math.Exp(sum / float64(len(vs))))
}

// median returns the median of vs, nil when vs is empty.
func median(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return ptr(s[n/2])
	}
	return ptr((s[n/2-1] + s[n/2]) / 2)
}

// ratio returns a/b, nil when a or b is 0: a ratio to or of nothing is
// undefined.
func ratio(a, b float64) *float64 {
	if a == 0 || b == 0 {
		return nil
	}
	return ptr(a / b)
}

func ptr(v float64) *float64 { return &v }
