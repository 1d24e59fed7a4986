package main

import (
	"context"
	"fmt"
	"io"
)

// runProfiles is a placeholder until the profiles command lands.
func runProfiles(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "latencylab profiles: not built yet")
	return 1
}
