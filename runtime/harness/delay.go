package harness

// Delay-bounded schedules (SchedDelay) run the two goroutines one at a
// time, switching only at up to Depth delay points: the schedule of
// iteration n is, after a first iteration without delays that measures
// the number of hook calls K, each first goroutine with each delay point
// 1..K (bound 1), then with each two delay points k1 < k2 (bound 2, when
// K <= maxDelayHorizon2). With two goroutines, two delays reach every
// schedule with up to three context switches: every bug of PCT depth 3
// or less in those calls, in at most 1+2K+K(K-1) iterations (1,641 for
// K = 40), fewer than PCT needs for that depth past K = 20 (2,000 runs
// at most, for a lower probability).
const (
	maxDelayHorizon1 = 60
	maxDelayHorizon2 = 40
)

// delayBound returns the bound of the delay-bounded schedules of a test
// whose first iteration made k hook calls, under Depth depth, once they
// were all run: every schedule with up to that many delays was (0 when
// k is too large for even one delay at each hook call).
func delayBound(k, depth int) int {
	switch {
	case depth >= 2 && k <= maxDelayHorizon2:
		return 2
	case k <= maxDelayHorizon1:
		return 1
	}
	return 0
}

// delayPoints returns the first goroutine and the delay points of
// iteration n, and whether n is within the enumeration.
func delayPoints(n, k, bound int) (first int, points []int, ok bool) {
	if n == 0 {
		return 0, nil, true
	}
	if k > maxDelayHorizon1 {
		k = maxDelayHorizon1
	}
	j := n - 1
	if j < 2*k {
		return j % 2, []int{j/2 + 1}, true
	}
	j -= 2 * k
	if bound < 2 || k > maxDelayHorizon2 || j >= k*(k-1) {
		return 0, nil, false
	}
	first, idx := j%2, j/2
	for k1 := 1; k1 < k; k1++ {
		if c := k - k1; idx < c {
			return first, []int{k1, k1 + 1 + idx}, true
		} else {
			idx -= c
		}
	}
	return 0, nil, false
}
