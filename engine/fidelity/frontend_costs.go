package fidelity

import "time"

// The three Frontend constants describe vLLM's API server, which the
// replay puts in front of every run measured through HTTP (see FrontEnd).
// vLLM runs it as one Python process, one CPU (vLLM RFC 12705), whose
// event loop takes in every request and streams every token of every
// request in flight. They live here, not in the engine's cost model,
// because the product's own Go front end has no such loop: labs and the
// live engine never pay them.

// FrontendOverhead is the fixed part of a served request's path that does
// not hold the API server's event loop: the client's send and receive, the
// network and the hops between the API server and the engine core. Fitted
// to the published served run where the GPU's share of the first token is
// smallest: Qwen2.5-0.5B on an L4 at concurrency 1 (vLLM v0.23.0, 256-token
// prompts), median TTFT 27.0 ms of which the modelled prefill step is about
// 6 ms.
const FrontendOverhead = 20 * time.Millisecond

// FrontendPerRequest is the API server's event-loop time to take in one
// request (parse it and hand it to the engine core; vLLM V1 tokenizes in a
// worker thread). Requests sent together reach the engine this far apart.
// Fitted to the L4 sweep, which barely tells 0 from 0.5 ms (mean error
// 12.8% at 0.25 ms, 13.0% at 0 and 0.5); larger values make its first-token
// times at concurrency 4 and 8 worse.
const FrontendPerRequest = 250 * time.Microsecond

// FrontendPerToken is the API server's event-loop time to stream one
// token: detokenize it, build the request's output, render the SSE chunk
// and write it. A new request and a first token wait behind every chunk
// already due, so with enough streams in flight the loop, not the GPU,
// sets the pace. Fitted to the L4 sweep, whose gaps between tokens grow to
// 7.1 ms at 32 streams while the engine's steps take about 6.5 ms: 32 ×
// 225 µs ≈ 7.2 ms. On a faster host it is smaller: one V1 API server
// streamed 12,850 tokens/s on an A100 host (vLLM PR 12287), at most 78 µs a
// token; the L4 sweep's host is a 4-vCPU VM (g2-standard-4) shared with the
// engine core's busy loop. Rendering the chunk alone costs 7.5 µs (vLLM PR
// 52875).
const FrontendPerToken = 225 * time.Microsecond
