package main

import (
	"context"
	"fmt"
	"io"
)

// runServe is a placeholder until the serve command lands.
func runServe(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "latencylab serve: not built yet")
	return 1
}
