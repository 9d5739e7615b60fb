package deps

import "testing"

// TestTeardown checks the names of methods that end an object's use.
func TestTeardown(t *testing.T) {
	for name, want := range map[string]bool{
		"Close": true, "CloseAll": true, "stopWorkers": true, "Shutdown": true, "ShutDown": true, "TearDown": true, "Release": true,
		"Closer": false, "Stopwatch": false, "Freeze": false, "Cancelled": false, "Init": false, "SetClosed": false,
	} {
		if got := teardown(name); got != want {
			t.Errorf("teardown(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestInternalTo checks which packages count as internal parts of a
// package's module.
func TestInternalTo(t *testing.T) {
	for _, tc := range []struct {
		path, user string
		want       bool
	}{
		{"example.com/m/internal/store", "example.com/m", true},
		{"example.com/m/internal/store", "example.com/m/cache", true},
		{"example.com/m/a/internal", "example.com/m/a/b", true},
		{"example.com/m/a/internal/x", "example.com/m/b", false},
		{"example.com/other/internal/x", "example.com/m", false},
		{"example.com/m/store", "example.com/m", false},
		{"internal/sync", "example.com/m", false},
	} {
		if got := internalTo(tc.path, tc.user); got != tc.want {
			t.Errorf("internalTo(%q, %q) = %v, want %v", tc.path, tc.user, got, tc.want)
		}
	}
}

// TestRestart checks the names of methods that bring an object back
// into use after its end.
func TestRestart(t *testing.T) {
	for name, want := range map[string]bool{
		"Reboot": true, "Restart": true, "ReopenFile": true, "resume": true,
		"Reset": false, "Rebooted": false, "Start": false, "Close": false,
	} {
		if got := Restart(name); got != want {
			t.Errorf("Restart(%q) = %v, want %v", name, got, want)
		}
	}
}
