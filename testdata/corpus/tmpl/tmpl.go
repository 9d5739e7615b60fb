// Package tmpl renders simple text templates with {{name}} placeholders.
package tmpl

import (
	"strings"
	"sync"
)

// Template is a text with {{name}} placeholders, compiled on first use. A
// Template is safe for concurrent use by multiple goroutines.
type Template struct {
	mu   sync.Mutex
	text string

	once  sync.Once
	parts []string
}

// NewTemplate returns a Template for text.
func NewTemplate(text string) *Template {
	return &Template{text: text}
}

func (t *Template) compile() {
	t.mu.Lock()
	text := t.text
	t.mu.Unlock()
	var parts []string
	for {
		i := strings.Index(text, "{{")
		j := strings.Index(text, "}}")
		if i < 0 || j < i {
			break
		}
		parts = append(parts, text[:i], strings.TrimSpace(text[i+2:j]))
		text = text[j+2:]
	}
	t.parts = append(parts, text)
}

// Text returns the template source.
func (t *Template) Text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.text
}

// SetText replaces the template source.
func (t *Template) SetText(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.text = text
	t.once = sync.Once{}
}

// Fields returns the number of placeholders.
func (t *Template) Fields() int {
	t.once.Do(t.compile)
	return len(t.parts) / 2
}

// Render replaces every placeholder with value.
func (t *Template) Render(value string) string {
	t.once.Do(t.compile)
	var sb strings.Builder
	for i, p := range t.parts {
		if i%2 == 1 {
			p = value
		}
		sb.WriteString(p)
	}
	return sb.String()
}
