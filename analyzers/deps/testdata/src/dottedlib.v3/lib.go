// Package dottedlib keeps private state in a package variable, and its
// import path's last element has a dot (dottedlib.v3, as gopkg.in/yaml.v3).
package dottedlib

var calls int

// Note counts a call in the package's private state.
func Note() { calls++ }
