// Package p has a type with methods of many parameter types, for the tests
// of package repro.
package p

import (
	"context"
	"errors"
	"io"
	"sync"
)

// Options configures a Store.
type Options struct{ Size int }

// DefaultOptions returns options by value.
func DefaultOptions(size int) Options { return Options{Size: size} }

// Level is a named basic type.
type Level int8

// Store is a type under test.
type Store struct {
	mu sync.Mutex
	m  map[string]int
}

// NewStore returns a Store, or an error for a negative size.
func NewStore(o Options, lv Level) (*Store, error) {
	if o.Size < 0 {
		return nil, errors.New("negative size")
	}
	return &Store{m: map[string]int{}}, nil
}

// NewStoreValue returns a Store by value.
func NewStoreValue() Store { return Store{} }

func (s *Store) Put(k string, v int)                                                         {}
func (s *Store) Link(o *Store, copyOf Store, any any)                                        {}
func (s *Store) Each(ctx context.Context, f func(string, ...int) error)                      {}
func (s *Store) Fill(b []byte, ws []io.Writer, m map[string]bool, c chan int, in <-chan int) {}
func (s *Store) Set(u uint16, x float32, lv Level, o *Options, opts ...Options)              {}

// Copy and Tee take readers and writers that need helper types.
func (s *Store) Copy(r io.ReadCloser, w io.WriteCloser) {}
func (s *Store) Tee(r io.ReadCloser, w io.WriteCloser)  {}

// Watch works until quit or stop is closed.
func (s *Store) Watch(quit <-chan struct{}, stop chan struct{}) {
	select {
	case <-quit:
	case <-stop:
	}
}

// Len and Err give a linearizability reproducer an outcome to render.
func (s *Store) Len() int   { return 0 }
func (s *Store) Err() error { return nil }
