//go:build unix

package main

import (
	"os"
	"syscall"
)

// memorySignals ask the server to return its free memory to the OS.
var memorySignals = []os.Signal{syscall.SIGUSR1}
