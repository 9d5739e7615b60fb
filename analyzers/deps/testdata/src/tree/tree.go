// plan: Node: |M|=6 pc=0 d=1

// Package tree has recursive methods: Sum locks a node and recurses into
// its children while holding the node's lock. Two trees that contain each
// other (a.Add(b), b.Add(a)) deadlock when a.Sum and b.Sum run
// concurrently, each holding its own lock and waiting for the other's.
package tree

import "sync"

// Node is a tree node, safe for concurrent use.
type Node struct {
	mu   sync.Mutex
	kids []*Node
	val  int
}

// Add adds a child.
func (n *Node) Add(k *Node) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.kids = append(n.kids, k)
}

// Sum sums the values of the tree, holding each node's lock while it
// sums its children.
func (n *Node) Sum() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	s := n.val
	for _, k := range n.kids {
		s += k.Sum()
	}
	return s
}

// Total is the negative twin of Sum: it copies the children under the
// lock and releases it before recursing.
func (n *Node) Total() int {
	n.mu.Lock()
	s, kids := n.val, append([]*Node(nil), n.kids...)
	n.mu.Unlock()
	for _, k := range kids {
		s += k.Total()
	}
	return s
}
