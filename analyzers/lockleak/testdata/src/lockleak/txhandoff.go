package lockleak

import (
	"errors"
	"sync"
)

// A database whose transactions keep its map lock read-locked for their
// lifetime: beginTx returns holding it on success, and the transaction's
// Rollback releases it through removeTx. Silent.
type TxDB struct {
	mmaplock sync.RWMutex
	rwlock   sync.Mutex
	metalock sync.Mutex
	opened   bool
	txs      []*Tx
}

type Tx struct {
	db       *TxDB
	writable bool
}

func (db *TxDB) Begin(writable bool) (*Tx, error) {
	if writable {
		return db.beginRWTx()
	}
	return db.beginTx()
}

func (db *TxDB) beginTx() (*Tx, error) {
	db.mmaplock.RLock()
	if !db.opened {
		db.mmaplock.RUnlock()
		return nil, errors.New("database not open")
	}
	t := &Tx{db: db}
	return t, nil
}

func (db *TxDB) beginRWTx() (*Tx, error) {
	// Released by the transaction when it closes.
	db.rwlock.Lock()
	db.metalock.Lock()
	defer db.metalock.Unlock() // the results are returned through their slots
	if !db.opened {
		db.rwlock.Unlock()
		return nil, errors.New("database not open")
	}
	return &Tx{db: db, writable: true}, nil
}

func (db *TxDB) removeTx() {
	db.mmaplock.RUnlock()
}

func (tx *Tx) Rollback() {
	if tx.writable {
		tx.db.rwlock.Unlock()
		return
	}
	tx.db.removeTx()
}

func (db *TxDB) View(fn func(*Tx) error) error {
	t, err := db.Begin(false)
	if err != nil {
		return err
	}
	defer t.Rollback()
	return fn(t)
}

func (db *TxDB) Update(fn func(*Tx) error) error {
	t, err := db.Begin(true)
	if err != nil {
		return err
	}
	defer t.Rollback()
	return fn(t)
}
