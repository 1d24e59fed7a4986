// Command latencylab serves the Latency Lab web app (the default), runs
// workloads on the bundled engine's virtual clock (sim), benchmarks any
// OpenAI-compatible server (bench), lists the hardware and model profiles
// (profiles) and copies its database while it runs (backup).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches to a subcommand and returns the process exit code:
// 0 on success, 1 on a runtime failure, 2 on bad input.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	// A help flag before any command asks about latencylab itself, not serve
	// (the default command), so it must be caught before flags go to serve.
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprintln(stdout, usage)
		return 0
	}
	sub := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "serve":
		return runServe(ctx, args, stdout, stderr)
	case "sim":
		return runSim(ctx, args, stdout, stderr)
	case "bench":
		return runBench(ctx, args, stdout, stderr)
	case "profiles":
		return runProfiles(ctx, args, stdout, stderr)
	case "backup":
		return runBackup(ctx, args, stdout, stderr)
	case "help":
		fmt.Fprintln(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "latencylab: unknown command %q (want serve, sim, bench, profiles or backup; -h lists them)\n", sub)
	return 2
}

// isHelp reports whether arg is one of the spellings the flag package
// accepts for help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "--h", "-help", "--help":
		return true
	}
	return false
}
