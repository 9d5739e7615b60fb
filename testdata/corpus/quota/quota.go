// Package quota enforces a usage limit per billing period.
package quota

import (
	"crypto/ed25519"
	"encoding/binary"
	"sync"
)

// Limiter admits requests while the units used in the current billing
// period stay within a limit. At the end of each period Rollover closes
// it with a signed report. A Limiter is safe for concurrent use by
// multiple goroutines.
type Limiter struct {
	key ed25519.PrivateKey

	mu      sync.Mutex
	period  int
	used    int
	limit   int
	allowed int
	denied  int
}

// A Report is the account of one billing period, signed by the limiter.
type Report struct {
	Period, Limit         int
	Used, Allowed, Denied int
	Signature             []byte
}

// New returns a limiter admitting limit units in its first period, with a
// fresh signing key.
func New(limit int) *Limiter {
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		panic(err)
	}
	return &Limiter{key: key, limit: limit}
}

// PublicKey returns the key that verifies the limiter's reports.
func (l *Limiter) PublicKey() ed25519.PublicKey {
	return l.key.Public().(ed25519.PublicKey)
}

// Allow records a request for n units and reports whether it fits in the
// period's limit; a request that does not fit is counted as denied and
// its units are given back.
func (l *Limiter) Allow(n int) bool {
	l.mu.Lock()
	l.used += n
	used := l.used
	l.mu.Unlock()
	ok := used <= l.limit
	l.mu.Lock()
	if ok {
		l.allowed++
	} else {
		l.used -= n
		l.denied++
	}
	l.mu.Unlock()
	return ok
}

// Used returns the units used so far in the current period.
func (l *Limiter) Used() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.used
}

// Limit returns the current period's limit.
func (l *Limiter) Limit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit
}

// Rollover closes the current period and starts the next one with the
// given limit. It returns the signed report of the closed period;
// requests admitted while the report is signed count in the next period.
// It panics if the report does not verify with the limiter's public key
// (a corrupted key).
func (l *Limiter) Rollover(limit int) Report {
	l.mu.Lock()
	r := Report{Period: l.period, Limit: l.limit, Used: l.used, Allowed: l.allowed, Denied: l.denied}
	l.mu.Unlock()
	r.Signature = ed25519.Sign(l.key, r.encode())
	if !Verify(l.PublicKey(), r) {
		panic("quota: report does not verify: corrupted key")
	}
	l.mu.Lock()
	l.period++
	l.limit = limit
	l.used -= r.Used
	l.allowed -= r.Allowed
	l.denied -= r.Denied
	l.mu.Unlock()
	return r
}

// Verify reports whether r was signed by the holder of pub.
func Verify(pub ed25519.PublicKey, r Report) bool {
	return ed25519.Verify(pub, r.encode(), r.Signature)
}

// encode is the signed form of r: its numbers, big-endian.
func (r Report) encode() []byte {
	b := make([]byte, 0, 5*8)
	for _, v := range []int{r.Period, r.Limit, r.Used, r.Allowed, r.Denied} {
		b = binary.BigEndian.AppendUint64(b, uint64(v))
	}
	return b
}
