package batching

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// Stat keys; ttft_p95_ms is what the prediction is compared with.
const (
	statTTFTP50    = "ttft_p50_ms"
	statTTFTP95    = "ttft_p95_ms"
	statTPOTP50    = "tpot_p50_ms"
	statTPOTP95    = "tpot_p95_ms"
	statITLP99     = "itl_p99_ms"
	statITLMax     = "itl_max_ms"
	statThroughput = "output_throughput"
	statTotal      = "total_ms"
	statPreempt    = "preemptions"
	statCompleted  = "completed"
)

// Chart ids and span names.
const (
	chartTimeline   = "timeline"
	chartBatch      = "batch"
	chartKV         = "kv-cache"
	chartThroughput = "throughput"
	chartITL        = "itl"

	spanQueued  = "queued"
	spanPrefill = "prefill"
	spanDecode  = "decode"
	spanHeld    = "done, seat held"
)

// liveView turns a recorder into frames. Its axes come from a
// virtual-clock run of the same workload and grow only if the live run
// outlasts them, so charts do not rescale every frame.
type liveView struct {
	s      settings
	cfg    engine.Config // the engine actually serving the run
	xmax   float64       // ms
	ymax   float64       // requests, for the batch chart
	static bool
	// estimate is the run's length on an idle engine (virtual clock).
	estimate time.Duration
}

// frame is every panel's state; final frames carry the run's summary.
func (v *liveView) frame(r *recorder, final bool, status string) labs.Frame {
	v.xmax = labs.AxisEnd(v.xmax, labs.Millis(r.now), 1.15)
	f := labs.Frame{
		Final:  final,
		Status: status,
		Stats:  v.stats(r),
		Charts: []labs.Chart{v.timeline(r), v.batch(r), v.kv(r), v.throughput(r, final), v.itl(r)},
	}
	if final {
		labs.Explain(f.Stats, v.why(r))
		labs.Explain(f.Stats, v.countWhy(r))
	}
	return f
}

func (v *liveView) stats(r *recorder) []labs.Stat {
	sum := summarize(r.outcomes(), 0, 0)
	gaps := append([]float64(nil), r.gaps...)
	slices.Sort(gaps)
	var itlMax float64
	if len(gaps) > 0 {
		itlMax = gaps[len(gaps)-1]
	}
	note := fmt.Sprintf("%s of %s requests", labs.Thousands(sum.completed), labs.Thousands(len(r.reqs)))
	preNote := "requests evicted to free KV cache, recomputed later"
	if v.s.shared {
		preNote = "on the shared engine, everyone's requests"
	}
	return []labs.Stat{
		{Key: statTTFTP50, Label: "TTFT p50", Value: round1(percentile(sum.ttft, 50)), Unit: "ms", Note: note},
		{Key: statTTFTP95, Label: "TTFT p95", Value: round1(percentile(sum.ttft, 95)), Unit: "ms", Note: "arrival to first token"},
		{Key: statTPOTP50, Label: "TPOT p50", Value: round1(percentile(sum.tpot, 50)), Unit: "ms", Note: "time per output token after the first"},
		{Key: statTPOTP95, Label: "TPOT p95", Value: round1(percentile(sum.tpot, 95)), Unit: "ms"},
		{Key: statITLP99, Label: "ITL p99", Value: round1(percentile(gaps, 99)), Unit: "ms", Note: "gap between consecutive tokens"},
		{Key: statITLMax, Label: "ITL max", Value: round1(itlMax), Unit: "ms"},
		{Key: statThroughput, Label: "Output throughput", Value: round1(sum.throughput()), Unit: "tok/s", Note: "all requests together"},
		{Key: statTotal, Label: "Total time", Value: round1(labs.Millis(sum.duration)), Unit: "ms", Note: "first arrival to last token"},
		{Key: statPreempt, Label: "Preemptions", Value: float64(r.preemptions), Unit: "", Note: preNote},
		{Key: statCompleted, Label: "Completed", Value: float64(sum.completed), Unit: "requests"},
	}
}

// timeline draws one row per request: queued until first scheduled,
// prefill until the first token, then decode. Under static batching a
// finished request keeps its seat until its batch's longest answer ends:
// that wait is drawn too, since a static server returns the batch together.
func (v *liveView) timeline(r *recorder) labs.Chart {
	batchEnd := map[time.Duration]time.Duration{} // static: batch start → end
	if v.static {
		open := map[time.Duration]bool{}
		for _, q := range r.reqs {
			if !q.scheduled {
				continue
			}
			if q.done {
				batchEnd[q.sched] = max(batchEnd[q.sched], q.end)
			} else {
				open[q.sched] = true
			}
		}
		for k := range open {
			batchEnd[k] = r.now
		}
	}
	rows := make([]labs.SpanRow, len(r.reqs))
	for i, q := range r.reqs {
		rows[i].Label = q.label
		if !q.arrived {
			continue
		}
		add := func(name string, a, b time.Duration) {
			if b > a {
				rows[i].Spans = append(rows[i].Spans, labs.Span{Name: name, Start: labs.Millis(a), End: labs.Millis(b)})
			}
		}
		switch {
		case !q.scheduled:
			add(spanQueued, q.arrival, r.now)
		case q.tokens == 0 && !q.done:
			add(spanQueued, q.arrival, q.sched)
			add(spanPrefill, q.sched, r.now)
		default:
			end := r.now
			if q.done {
				end = q.end
			}
			add(spanQueued, q.arrival, q.sched)
			add(spanPrefill, q.sched, q.first)
			add(spanDecode, q.first, end)
			if q.done && v.static {
				add(spanHeld, q.end, batchEnd[q.sched])
			}
		}
	}
	return labs.Chart{ID: chartTimeline, Title: "Requests over time", Kind: labs.ChartTimeline,
		XLabel: "time since the first request", XUnit: "ms", XMax: v.xmax, Rows: rows}
}

func (v *liveView) batch(r *recorder) labs.Chart {
	// Each step's batch holds from its start to its end: draw steps flat.
	run := make([]labs.Point, 0, 2*len(r.steps))
	wait := make([]labs.Point, 0, 2*len(r.steps))
	ymax := v.ymax
	for _, p := range r.steps {
		run = append(run, labs.Point{X: labs.Millis(p.start), Y: float64(p.running)}, labs.Point{X: labs.Millis(p.at), Y: float64(p.running)})
		wait = append(wait, labs.Point{X: labs.Millis(p.start), Y: float64(p.waiting)}, labs.Point{X: labs.Millis(p.at), Y: float64(p.waiting)})
		ymax = max(ymax, float64(p.running), float64(p.waiting))
	}
	if ymax > v.ymax {
		v.ymax = labs.NiceCeil(ymax * 1.1)
	}
	return labs.Chart{ID: chartBatch, Title: "Running batch and queue", Kind: labs.ChartLine,
		XLabel: "time", XUnit: "ms", YLabel: "requests", XMax: v.xmax, YMax: v.ymax,
		Series: []labs.Series{{Name: "running (batch size)", Points: run}, {Name: "waiting", Points: wait, Dashed: true}}}
}

func (v *liveView) kv(r *recorder) labs.Chart {
	pts := make([]labs.Point, 0, len(r.steps))
	for _, p := range r.steps {
		pts = append(pts, labs.Point{X: labs.Millis(p.at), Y: round1(p.kv * 100)})
	}
	return labs.Chart{ID: chartKV, Title: "KV cache in use", Kind: labs.ChartArea,
		XLabel: "time", XUnit: "ms", YLabel: "of the cache", YUnit: "%", XMax: v.xmax, YMax: 100,
		Series: []labs.Series{{Name: "KV cache used", Points: pts}}}
}

// throughput bins the run's output tokens; a bin is drawn once it is
// complete (all bins at the end).
func (v *liveView) throughput(r *recorder, final bool) labs.Chart {
	pts := make([]labs.Point, 0, len(r.perBucket))
	for b, n := range r.perBucket {
		end := time.Duration(b+1) * r.bucket
		if end > r.now && !final {
			break
		}
		pts = append(pts, labs.Point{X: labs.Millis(end), Y: math.Round(perSecond(float64(n), r.bucket))})
	}
	return labs.Chart{ID: chartThroughput, Title: "Output tokens per second", Kind: labs.ChartLine,
		XLabel: "time", XUnit: "ms", YLabel: "throughput", YUnit: "tok/s", XMax: v.xmax,
		Series: []labs.Series{{Name: fmt.Sprintf("tokens/s (%s bins)", fmtMS(labs.Millis(r.bucket))), Points: pts}}}
}

// itl draws, for every step that produced tokens, the longest gap any
// request waited since its previous token, held flat since the previous
// step's tokens: a long prefill stalling everyone shows as a plateau as
// wide and as high as the stall.
func (v *liveView) itl(r *recorder) labs.Chart {
	pts := make([]labs.Point, 0, 2*len(r.itl))
	for i, p := range r.itl {
		y := round1(labs.Millis(p.gap))
		if i > 0 {
			pts = append(pts, labs.Point{X: labs.Millis(r.itl[i-1].at), Y: y})
		}
		pts = append(pts, labs.Point{X: labs.Millis(p.at), Y: y})
	}
	return labs.Chart{ID: chartITL, Title: "Longest gap between tokens, per step", Kind: labs.ChartLine,
		XLabel: "time", XUnit: "ms", YLabel: "inter-token latency", YUnit: "ms", XMax: v.xmax,
		Series: []labs.Series{{Name: "max ITL", Points: pts}}}
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// fmtMS writes a duration given in ms for status lines: "840 ms", "3.2 s".
func fmtMS(x float64) string {
	if x < 1000 {
		return strconv.FormatFloat(math.Round(x), 'f', -1, 64) + " ms"
	}
	return strconv.FormatFloat(math.Round(x/100)/10, 'f', -1, 64) + " s"
}
