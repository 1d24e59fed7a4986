package main

import (
	"context"
	"fmt"
	"io"
)

// runBench is a placeholder until the bench command lands.
func runBench(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "latencylab bench: not built yet")
	return 1
}
