// Package semver represents mutable semantic version numbers.
package semver

import (
	"errors"
	"fmt"
	"sync"
)

// Version is a semantic version major.minor.patch with an optional
// pre-release label. A Version is safe for concurrent use by multiple
// goroutines.
type Version struct {
	mu                  sync.Mutex
	major, minor, patch int
	pre                 string
	str                 string
}

// NewVersion returns the version major.minor.patch.
func NewVersion(major, minor, patch int) (*Version, error) {
	if major < 0 || minor < 0 || patch < 0 {
		return nil, errors.New("semver: negative version component")
	}
	return &Version{major: major, minor: minor, patch: patch}, nil
}

// String returns the version in the form "1.2.3" or "1.2.3-rc1".
func (v *Version) String() string {
	if v.str == "" {
		v.mu.Lock()
		s := fmt.Sprintf("%d.%d.%d", v.major, v.minor, v.patch)
		if v.pre != "" {
			s += "-" + v.pre
		}
		v.mu.Unlock()
		v.str = s
	}
	return v.str
}

// BumpMajor increments the major component and resets the others.
func (v *Version) BumpMajor() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.major, v.minor, v.patch, v.pre, v.str = v.major+1, 0, 0, "", ""
}

// BumpMinor increments the minor component and resets the patch level.
func (v *Version) BumpMinor() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.minor, v.patch, v.pre, v.str = v.minor+1, 0, "", ""
}

// BumpPatch increments the patch component.
func (v *Version) BumpPatch() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.patch, v.pre, v.str = v.patch+1, "", ""
}

// SetPrerelease sets the pre-release label; "" marks a release.
func (v *Version) SetPrerelease(label string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.pre, v.str = label, ""
}

func (v *Version) parts() [3]int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return [3]int{v.major, v.minor, v.patch}
}

// Compare returns -1, 0 or +1 depending on whether v orders before, equal
// to or after other, ignoring pre-release labels.
func (v *Version) Compare(other *Version) int {
	if other == nil {
		return 1
	}
	a, b := v.parts(), other.parts()
	for i := range a {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return 1
		}
	}
	return 0
}
