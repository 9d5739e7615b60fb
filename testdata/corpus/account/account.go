// Package account models bank accounts that can move money between each
// other.
package account

import (
	"errors"
	"sync"
)

var (
	// ErrAmount is returned for non-positive amounts.
	ErrAmount = errors.New("account: amount must be positive")
	// ErrInsufficientFunds is returned when the balance does not cover a
	// withdrawal.
	ErrInsufficientFunds = errors.New("account: insufficient funds")
	// ErrSameAccount is returned by Transfer when source and target match.
	ErrSameAccount = errors.New("account: transfer to the same account")
)

// Account is a bank account holding an integer balance. An Account is safe
// for concurrent use by multiple goroutines.
type Account struct {
	mu      sync.Mutex
	owner   string
	balance int
	ops     int
}

// NewAccount opens an account for owner with an initial balance.
func NewAccount(owner string, balance int) (*Account, error) {
	if balance < 0 {
		return nil, ErrAmount
	}
	return &Account{owner: owner, balance: balance}, nil
}

// Owner returns the account holder.
func (a *Account) Owner() string { return a.owner }

// Balance returns the current balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Deposit adds n to the balance.
func (a *Account) Deposit(n int) error {
	if n <= 0 {
		return ErrAmount
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += n
	a.ops++
	return nil
}

// Withdraw removes n from the balance.
func (a *Account) Withdraw(n int) error {
	if n <= 0 {
		return ErrAmount
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance < n {
		return ErrInsufficientFunds
	}
	a.balance -= n
	a.ops++
	return nil
}

// Operations returns the number of completed deposits, withdrawals and
// transfers.
func (a *Account) Operations() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ops
}

// Transfer moves n from a to the account to.
func (a *Account) Transfer(to *Account, n int) error {
	if to == nil || to == a {
		return ErrSameAccount
	}
	if n <= 0 {
		return ErrAmount
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	if a.balance < n {
		return ErrInsufficientFunds
	}
	a.balance -= n
	to.balance += n
	a.ops++
	to.ops++
	return nil
}
