//go:build unix

package textmodel

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, for benchmarks on a
// shared machine where wall time per op depends on the neighbours.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
