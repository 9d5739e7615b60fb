// Package ledger moves money between accounts through a ledger. Ledger's
// Transfer locks its two accounts in the order it is given them: two
// concurrent transfers between the same two accounts in opposite
// directions deadlock, which depcon test can see only when both calls
// are given the same accounts. SafeLedger locks them in the order of
// their numbers, and is correct.
package ledger

import "sync"

// Account is a balance under a lock.
type Account struct {
	mu      sync.Mutex
	id      int
	balance int
}

var (
	idsMu  sync.Mutex
	lastID int
)

// NewAccount opens an account with a balance.
func NewAccount(balance int) *Account {
	idsMu.Lock()
	defer idsMu.Unlock()
	lastID++
	return &Account{id: lastID, balance: balance}
}

// Balance returns the account's balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Ledger moves money and counts the moves.
type Ledger struct {
	mu    sync.Mutex
	moves int
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{} }

// Transfer moves n from one account to another, locking from, then to.
func (l *Ledger) Transfer(from, to *Account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
	l.mu.Lock()
	l.moves++
	l.mu.Unlock()
}

// Moves returns how many transfers were made.
func (l *Ledger) Moves() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.moves
}

// SafeLedger is Ledger with a lock order: the account of the lower
// number first.
type SafeLedger struct {
	mu    sync.Mutex
	moves int
}

// NewSafeLedger returns an empty ledger.
func NewSafeLedger() *SafeLedger { return &SafeLedger{} }

// Transfer moves n from one account to another, locking the account of
// the lower number first.
func (l *SafeLedger) Transfer(from, to *Account, n int) {
	if from == to {
		return
	}
	first, second := from, to
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= n
	to.balance += n
	l.mu.Lock()
	l.moves++
	l.mu.Unlock()
}

// Moves returns how many transfers were made.
func (l *SafeLedger) Moves() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.moves
}
