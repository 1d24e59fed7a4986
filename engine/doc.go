// Package engine is Latency Lab's simulated GPU inference server: hardware
// and model profiles, a roofline cost model, a paged KV cache with prefix
// caching, vLLM-style scheduler policies and a per-step trace.
//
// The core is pure and synchronous. It never reads the wall clock and starts
// no goroutines: Engine.Step runs one iteration (schedule → cost model →
// postprocess) and advances the engine's own clock by the modelled step time.
// Simulate drives it on a virtual clock (discrete-event, deterministic); the
// engine/live package drives the same code in real time.
package engine
