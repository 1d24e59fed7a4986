package main

import (
	"context"
	"fmt"
	"io"
)

// runSim is a placeholder until the sim command lands.
func runSim(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "latencylab sim: not built yet")
	return 1
}
