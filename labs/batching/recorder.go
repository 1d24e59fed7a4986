package batching

import (
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// recorder accumulates what a run has shown so far: each request's
// progress and the engine's steps. The live run feeds it from the engine's
// event streams and step trace as they happen; tests feed it a virtual-clock
// run, so both paths draw the same charts from the same code. Every time is
// engine time since the run's start (t0).
type recorder struct {
	t0   time.Duration
	reqs []reqState
	byID map[string]int
	now  time.Duration // latest engine time seen

	steps       []stepPoint
	preemptions int
	itl         []itlPoint // max gap per step end, in time order
	gaps        []float64  // every inter-token gap (ms)
	gapSpans    []itlPoint // each of gaps exactly, with when it ended, for its why panel
	bucket      time.Duration
	perBucket   []int // output tokens per bucket of the throughput chart
}

// reqState is one request as seen so far.
type reqState struct {
	label                      string
	arrived, scheduled, done   bool
	arrival, sched, first, end time.Duration
	tokens                     int
	last                       time.Duration // time of the latest token
}

// stepPoint is one engine step's gauges at its end.
type stepPoint struct {
	start, at        time.Duration
	running, waiting int
	kv               float64 // fraction
	preempted        int     // requests the step evicted to free KV blocks
}

type itlPoint struct {
	at  time.Duration
	gap time.Duration
}

// newRecorder tracks the requests ids (labelled for the timeline rows);
// bucket is the width of the throughput chart's bins.
func newRecorder(t0, bucket time.Duration, ids, labels []string) *recorder {
	r := &recorder{t0: t0, bucket: max(bucket, time.Millisecond), reqs: make([]reqState, len(ids)), byID: make(map[string]int, len(ids))}
	for i, id := range ids {
		r.byID[id] = i
		r.reqs[i].label = labels[i]
	}
	return r
}

func (r *recorder) rel(t time.Duration) time.Duration { return t - r.t0 }

func (r *recorder) advance(t time.Duration) { r.now = max(r.now, t) }

// arrive marks request i submitted at engine time t.
func (r *recorder) arrive(i int, t time.Duration) {
	q := &r.reqs[i]
	if !q.arrived {
		q.arrived, q.arrival = true, r.rel(t)
		r.advance(q.arrival)
	}
}

// step records one engine step. On a shared engine the trace holds other
// learners' requests too: they count toward the batch and KV gauges (that
// load is the point of sharing) but have no rows here.
func (r *recorder) step(tr engine.StepTrace) {
	if tr.Start < r.t0 {
		return // a step of someone else's that began before this run
	}
	start, end := r.rel(tr.Start), r.rel(tr.End())
	for _, b := range tr.Batch {
		if i, ok := r.byID[b.ID]; ok && !r.reqs[i].scheduled {
			r.reqs[i].scheduled, r.reqs[i].sched = true, start
		}
	}
	r.steps = append(r.steps, stepPoint{start: start, at: end, running: tr.Running, waiting: tr.Waiting, kv: tr.KVUsage, preempted: tr.Preemptions})
	r.preemptions += tr.Preemptions
	r.advance(end)
}

// token records output token index of request i at engine time t.
func (r *recorder) token(i, index int, t time.Duration) {
	q := &r.reqs[i]
	at := r.rel(t)
	if index == 0 || q.tokens == 0 {
		q.first = at
		if !q.scheduled { // the trace was dropped or is late: the token proves it ran
			q.scheduled, q.sched = true, at
		}
	} else {
		gap := at - q.last
		r.gaps = append(r.gaps, labs.Millis(gap))
		r.gapSpans = append(r.gapSpans, itlPoint{at: at, gap: gap})
		r.addITL(at, gap)
	}
	q.tokens++
	q.last = at
	if b := int(at / r.bucket); b >= 0 {
		for len(r.perBucket) <= b {
			r.perBucket = append(r.perBucket, 0)
		}
		r.perBucket[b]++
	}
	r.advance(at)
}

// addITL keeps the largest gap per step end; tokens of one step may come
// in any order from their request streams, so it inserts in time order.
func (r *recorder) addITL(at, gap time.Duration) {
	j := len(r.itl)
	for j > 0 && r.itl[j-1].at > at {
		j--
	}
	if j > 0 && r.itl[j-1].at == at {
		r.itl[j-1].gap = max(r.itl[j-1].gap, gap)
		return
	}
	r.itl = append(r.itl, itlPoint{})
	copy(r.itl[j+1:], r.itl[j:])
	r.itl[j] = itlPoint{at: at, gap: gap}
}

// finish records request i's final timings, which are exact where the
// streamed view could only approximate (the arrival as the engine logged it).
func (r *recorder) finish(i int, tm engine.Timing) {
	q := &r.reqs[i]
	q.done, q.arrived, q.scheduled = true, true, true
	q.arrival, q.sched, q.first, q.end = r.rel(tm.Arrival), r.rel(tm.FirstScheduled), r.rel(tm.FirstToken), r.rel(tm.End)
	r.advance(q.end)
}

// outcomes lists the finished requests.
func (r *recorder) outcomes() []outcome {
	var out []outcome
	for _, q := range r.reqs {
		if q.done {
			out = append(out, outcome{arrival: q.arrival, first: q.first, end: q.end, tokens: q.tokens})
		}
	}
	return out
}

// replay feeds a virtual-clock result into r in time order of steps, as a
// live run would have seen it (tests and estimates).
func (r *recorder) replay(reqs []engine.Request, res *engine.SimResult) {
	for i, q := range reqs {
		r.arrive(r.byID[q.ID], res.Requests[i].Arrival)
	}
	for _, tr := range res.Trace {
		r.step(tr)
	}
	for i, q := range reqs {
		j := r.byID[q.ID]
		for k, t := range res.Requests[i].TokenTimes {
			r.token(j, k, t)
		}
		r.finish(j, res.Requests[i].Timing)
	}
}
