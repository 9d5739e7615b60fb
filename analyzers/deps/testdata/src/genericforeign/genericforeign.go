// plan: Index: |M|=6 pc=1 d=0; Names: |M|=6 pc=1 d=0

// Package genericforeign promotes the methods of a generic type of
// another package (genericlib.Map): through a generic type that embeds
// a pointer to it instantiated with its own type parameter (Index), and
// through a non-generic type that embeds an instantiation (Names). The
// promoted methods have the summaries of genericlib's facts, on the
// embedding path (recv.Map.mu).
package genericforeign

import "genericlib"

// Index embeds a pointer to a Map of its own values.
type Index[V any] struct {
	*genericlib.Map[string, V]
}

// Names embeds a Map by value.
type Names struct {
	genericlib.Map[string, string]
}
