// Package benchmark reproduces the semantics of `vllm bench serve`: a seeded
// random dataset of real-text prompts, request arrivals on a Poisson or gamma
// process, an optional concurrency cap, and the serving metrics vLLM reports
// (TTFT, TPOT, ITL, E2EL, throughput) as a readable table or as JSON with
// vLLM's key names.
//
// The package only does arithmetic on what a run measured; running the
// workload is left to the caller (the engine's virtual clock in `latencylab
// sim`, real HTTP in `latencylab bench` via RunHTTP).
package benchmark
