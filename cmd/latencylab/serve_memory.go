package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
)

// watchMemorySignal returns the process's free memory to the OS each time
// it receives one of memorySignals (SIGUSR1 on Unix), until ctx ends.
//
// Go keeps freed heap for reuse and, on an idle server, collects garbage
// only every two minutes, so after a burst (a workshop, a load test) the
// process stays several times its resting size for minutes. The signal
// lets an operator shrink it at once, and lets the load test tell memory
// still held by the app from memory the runtime merely kept.
func watchMemorySignal(ctx context.Context, logger *slog.Logger) {
	if len(memorySignals) == 0 {
		return
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, memorySignals...)
	go func() {
		defer signal.Stop(sig)
		for {
			select {
			case <-ctx.Done():
				return
			case <-sig:
				releaseMemory(logger)
			}
		}
	}()
}

// releaseMemory collects twice, because a sync.Pool (echo's gzip writers,
// about 0.8 MB each) keeps its contents through one collection, then
// returns every free page to the OS and logs what is left.
func releaseMemory(logger *slog.Logger) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	logger.Info("memory returned to the OS", "heap_live_mib", ms.HeapAlloc>>20, "heap_kept_mib", (ms.HeapSys-ms.HeapReleased)>>20, "goroutines", runtime.NumGoroutine())
}
