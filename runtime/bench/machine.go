package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// machine describes the machine absolute times were measured on: the
// number of CPUs, the CPU model, and the Go toolchain that builds the
// children.
func machine() string {
	return fmt.Sprintf("%d CPUs (%s), %s %s/%s", runtime.NumCPU(), cpuModel(), goVersion(), runtime.GOOS, runtime.GOARCH)
}

// cpuModel returns the first model name of /proc/cpuinfo, "unknown CPU"
// when there is none.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// loadAverage returns the load averages over 1, 5 and 15 minutes from
// /proc/loadavg, "unknown" when it cannot be read: a load above the
// number of CPUs means other work competed with the measurement.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

// goVersion returns the version of the go command, which builds the
// children, or the version depcon was built with when it does not answer.
func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if v := strings.TrimSpace(string(out)); err == nil && v != "" {
		return v
	}
	return runtime.Version()
}
