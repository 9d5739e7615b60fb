package batcher

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/depcon/depcon/testdata/corpus/internal/repeat"
)

// TestRepeat measures how many plain repetitions of Add ∥ SetLimit on a
// fresh batcher it takes until the race detector reports Add's read of
// limit racing with SetLimit's write.
func TestRepeat(t *testing.T) {
	repeat.HardOnly(t)
	repeat.MeasureRace(t, "batcher", func() {
		b := NewBatcher(1)
		repeat.Pair(func() { b.Add([]byte("record")) }, func() { b.SetLimit(2) })
	})
}

// TestForced runs Add's halves in one goroutine and SetLimit in another,
// ordered by sleeps (which add no happens-before edge): SetLimit's
// critical section falls between Add's push and its read of limit, so the
// read is ordered with nothing SetLimit did and the race detector reports
// it. Without -race it only checks that the code runs.
func TestForced(t *testing.T) {
	repeat.HardOnly(t)
	if os.Getenv("DEPCON_FORCED_CHILD") == "1" {
		forced()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestForced$", "-test.count=1")
	cmd.Env = append(os.Environ(), "DEPCON_FORCED_CHILD=1", "GORACE=halt_on_error=1 exitcode=66")
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 66 || !bytes.Contains(out, []byte("WARNING: DATA RACE")) {
		t.Fatalf("no data race reported (build with -race):\n%s", out)
	}
	t.Logf("%s", out)
}

func forced() {
	b := NewBatcher(1)
	done := make(chan bool)
	go func() {
		rec := []byte("record")
		n := b.push(Record{rec, 0})
		time.Sleep(50 * time.Millisecond)
		due := n >= b.limit
		b.count(due)
		done <- due
	}()
	go func() {
		time.Sleep(20 * time.Millisecond)
		b.SetLimit(2)
		done <- false
	}()
	<-done
	<-done
}
