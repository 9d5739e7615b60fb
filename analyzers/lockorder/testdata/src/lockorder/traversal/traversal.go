// want package:"traversal.Blob.mu -> traversal.Dir.mu; traversal.Chunk.mu -> traversal.Vol.mu; traversal.Dir.mu -> traversal.Blob.mu"

// Package traversal holds a lock-order cycle established through a
// recursive traversal over a node's children ranged over as a map (the
// same through a slice is in package sum, Node.Depth), next to a correct
// variant.
package traversal

import "sync"

// A Dir is a directory whose leaves hold a Blob; a Blob's owner is the
// directory that holds the blob's leaf.
type Dir struct {
	mu       sync.Mutex
	children map[string]*Dir
	blob     *Blob // set on leaves only
	dirty    bool
}

type Blob struct {
	mu    sync.Mutex
	owner *Dir
	buf   []byte
}

// Sync holds a directory's lock while it syncs its children: a leaf's
// blob is locked (in the child's Sync) with its owner's lock held,
// Dir.mu → Blob.mu, through the range variable over the map.
func (d *Dir) Sync() {
	if d.blob != nil {
		d.blob.sync()
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.children {
		c.Sync()
	}
}

func (b *Blob) sync() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = b.buf[:0]
}

// Write holds the blob's lock and marks its owner dirty: Blob.mu →
// Dir.mu. A Write concurrent with the owner's Sync deadlocks.
func (b *Blob) Write(p []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	b.owner.markDirty() // want `lock order inversion: Write locks b.owner.mu \(in markDirty\) while holding b.mu, but Sync \(at traversal.go:\d+:\d+\) locks them in the opposite order`
}

func (d *Dir) markDirty() {
	d.mu.Lock()
	d.dirty = true
	d.mu.Unlock()
}

// The correct variant: the children are copied under the directory's
// lock, which is released before they are synced; a blob's Write still
// marks its owner dirty with the blob's lock held, but no path holds a
// directory's lock while locking a blob.
type Vol struct {
	mu       sync.Mutex
	children map[string]*Vol
	blob     *Chunk
	dirty    bool
}

type Chunk struct {
	mu    sync.Mutex
	owner *Vol
	buf   []byte
}

func (v *Vol) Sync() {
	if v.blob != nil {
		v.blob.sync()
		return
	}
	v.mu.Lock()
	kids := make([]*Vol, 0, len(v.children))
	for _, c := range v.children {
		kids = append(kids, c)
	}
	v.mu.Unlock()
	for _, c := range kids {
		c.Sync()
	}
}

func (c *Chunk) sync() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = c.buf[:0]
}

func (c *Chunk) Write(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = append(c.buf, p...)
	c.owner.markDirty()
}

func (v *Vol) markDirty() {
	v.mu.Lock()
	v.dirty = true
	v.mu.Unlock()
}
