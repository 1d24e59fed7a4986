package fidelity

import (
	"cmp"
	"container/heap"
	"time"
)

// FrontEnd is vLLM's API server as a benchmark client meets it: one Python
// process whose event loop does all the serving work in turn. For a new
// request it parses the HTTP body, tokenizes the prompt and hands the
// request to the engine core; for every token the engine core emits it
// detokenizes, builds the request's output, renders an SSE chunk and writes
// it to the socket. A new request waits behind the chunks already queued,
// and a first token waits behind the chunks of the same step, which is why
// time to first token grows with the number of streams in flight while the
// gaps between one stream's tokens hardly move.
type FrontEnd struct {
	// Latency is the fixed part of a request's path that does not hold the
	// event loop: the client's own send and receive, the loopback network
	// and the hop to the engine core process.
	Latency time.Duration
	// PerRequest is the event loop's time to take in one request.
	PerRequest time.Duration
	// PerToken is the event loop's time to stream one token to its client.
	PerToken time.Duration
}

// VLLMFrontEnd is the front end the replay puts before every served run.
func VLLMFrontEnd() FrontEnd {
	return FrontEnd{Latency: FrontendOverhead, PerRequest: FrontendPerRequest, PerToken: FrontendPerToken}
}

// job is one piece of work for the event loop: taking in request req
// (token < 0) or streaming its token-th token. ready is when the work
// became due; seq keeps jobs due at the same instant in the order they
// were made, as the engine core lists a step's outputs in batch order.
type job struct {
	ready time.Duration
	seq   uint64
	req   int
	token int
}

// jobQueue orders jobs by when they became due: the event loop serves
// callbacks first come, first served.
type jobQueue []job

func (q jobQueue) Len() int { return len(q) }
func (q jobQueue) Less(i, j int) bool {
	if c := cmp.Compare(q[i].ready, q[j].ready); c != 0 {
		return c < 0
	}
	return q[i].seq < q[j].seq
}
func (q jobQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *jobQueue) Push(x any)   { *q = append(*q, x.(job)) }
func (q *jobQueue) Pop() any {
	old := *q
	j := old[len(old)-1]
	*q = old[:len(old)-1]
	return j
}

// eventLoop is the API server's single worker on the virtual clock.
type eventLoop struct {
	fe   FrontEnd
	jobs jobQueue
	seq  uint64
	free time.Duration // when the loop finishes the work it has started
}

func (l *eventLoop) add(ready time.Duration, req, token int) {
	heap.Push(&l.jobs, job{ready: ready, seq: l.seq, req: req, token: token})
	l.seq++
}

// next reports when the earliest queued job becomes due.
func (l *eventLoop) next() (time.Duration, bool) {
	if len(l.jobs) == 0 {
		return 0, false
	}
	return l.jobs[0].ready, true
}

// runUntil serves, in order, every job due by t, and calls done with each
// job and the time the loop finished it. A job may finish after t; a job
// that done adds is served in this call when it is due by t.
func (l *eventLoop) runUntil(t time.Duration, done func(j job, at time.Duration)) {
	for len(l.jobs) > 0 && l.jobs[0].ready <= t {
		j := heap.Pop(&l.jobs).(job)
		cost := l.fe.PerToken
		if j.token < 0 {
			cost = l.fe.PerRequest
		}
		l.free = max(l.free, j.ready) + cost
		done(j, l.free)
	}
}
