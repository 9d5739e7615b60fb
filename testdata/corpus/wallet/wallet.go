// Package wallet models wallets holding integer amounts that can pay each
// other.
package wallet

import (
	"errors"
	"sync"
	"sync/atomic"
)

var (
	// ErrAmount is returned for non-positive amounts.
	ErrAmount = errors.New("wallet: amount must be positive")
	// ErrFunds is returned when a wallet cannot cover a payment.
	ErrFunds = errors.New("wallet: insufficient funds")
)

var nextID atomic.Uint64

// Wallet holds an amount of money. A Wallet is safe for concurrent use by
// multiple goroutines.
type Wallet struct {
	id uint64

	mu      sync.Mutex
	balance int
}

// NewWallet returns a Wallet holding balance (negative values count as 0).
func NewWallet(balance int) *Wallet {
	return &Wallet{id: nextID.Add(1), balance: max(balance, 0)}
}

// Balance returns the current amount.
func (w *Wallet) Balance() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.balance
}

// Deposit adds n.
func (w *Wallet) Deposit(n int) error {
	if n <= 0 {
		return ErrAmount
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.balance += n
	return nil
}

// Pay moves n from w to the wallet to.
func (w *Wallet) Pay(to *Wallet, n int) error {
	if n <= 0 {
		return ErrAmount
	}
	if to == nil || to == w {
		return nil
	}
	first, second := w, to
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if w.balance < n {
		return ErrFunds
	}
	w.balance -= n
	to.balance += n
	return nil
}

// Sweep moves the whole balance of from into w and returns the amount.
func (w *Wallet) Sweep(from *Wallet) int {
	if from == nil || from == w {
		return 0
	}
	from.mu.Lock()
	n := from.balance
	from.balance = 0
	from.mu.Unlock()
	w.mu.Lock()
	w.balance += n
	w.mu.Unlock()
	return n
}
