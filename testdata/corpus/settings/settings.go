// Package settings holds the display settings of an editor.
package settings

import (
	"errors"
	"fmt"
	"sync"
)

// Settings are the display settings of an editor window. Settings are safe
// for concurrent use by multiple goroutines.
type Settings struct {
	mu       sync.Mutex
	theme    string
	fontSize int
	wrap     bool
}

// NewSettings returns default settings with the given theme.
func NewSettings(theme string) *Settings {
	return &Settings{theme: theme, fontSize: 12}
}

// Theme returns the colour theme.
func (s *Settings) Theme() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.theme
}

// SetTheme changes the colour theme.
func (s *Settings) SetTheme(theme string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.theme = theme
}

// FontSize returns the font size in points.
func (s *Settings) FontSize() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fontSize
}

// SetFontSize changes the font size; it must be between 6 and 72 points.
func (s *Settings) SetFontSize(n int) error {
	if n < 6 || n > 72 {
		return errors.New("settings: font size out of range")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fontSize = n
	return nil
}

// ToggleWrap switches line wrapping and returns the new state.
func (s *Settings) ToggleWrap() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wrap = !s.wrap
	return s.wrap
}

// Summary describes the settings in one line.
func (s Settings) Summary() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("theme=%s font=%dpt wrap=%t", s.theme, s.fontSize, s.wrap)
}
