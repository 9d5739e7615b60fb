// Package run declares the runner interface that package objects'
// breakers implement, as a parent package declares the interface of its
// subpackages' implementations.
package run

// A Runner runs functions.
type Runner interface {
	Run(f func() error) error
}

// A Middleware wraps a runner in another.
type Middleware func(next Runner) Runner
