//go:build !unix

package main

import "os"

// memorySignals is empty where there is no SIGUSR1.
var memorySignals []os.Signal
