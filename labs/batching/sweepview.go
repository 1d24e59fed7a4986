package batching

import (
	"fmt"
	"math"
	"strconv"

	"github.com/latencylab/latencylab/labs"
)

// Sweep chart ids.
const (
	chartSweepThroughput = "sweep-throughput"
	chartSweepTTFT       = "sweep-ttft"
	chartSweepGoodput    = "sweep-goodput"
)

// sweepView draws the points finished so far.
type sweepView struct {
	plan   *sweepPlan
	points [][]*point // [policy][rate]; nil until simulated
	done   int
}

func (v *sweepView) frame(final bool) labs.Frame {
	total := len(sweepPolicies) * len(v.plan.rates)
	status := fmt.Sprintf("Sweep: %d of %d points simulated (%d requests each; continuous batching handles about %s req/s on a burst).",
		v.done, total, sweepRequests, fmtNum(v.plan.capacity))
	if final {
		status = fmt.Sprintf("Sweep done: %d points of %d requests on %s, on the virtual clock.", total, sweepRequests, v.plan.s.profile)
	}
	return labs.Frame{
		Final:  final,
		Status: status,
		Stats:  v.stats(),
		Charts: []labs.Chart{v.throughputChart(), v.ttftChart(), v.goodputChart()},
		Tables: []labs.Table{v.table()},
	}
}

// series is one line per policy of f over the finished points.
func (v *sweepView) series(f func(*point) float64) []labs.Series {
	out := make([]labs.Series, len(sweepPolicies))
	for pi, pol := range sweepPolicies {
		out[pi].Name = string(pol)
		for _, pt := range v.points[pi] {
			if pt != nil {
				out[pi].Points = append(out[pi].Points, labs.Point{X: pt.rate, Y: f(pt)})
			}
		}
	}
	return out
}

func (v *sweepView) xmax() float64 { return labs.NiceCeil(v.plan.rates[len(v.plan.rates)-1] * 1.05) }

func (v *sweepView) throughputChart() labs.Chart {
	return labs.Chart{ID: chartSweepThroughput, Title: "Output throughput against request rate", Kind: labs.ChartLine,
		XLabel: "request rate", XUnit: "req/s", YLabel: "output throughput", YUnit: "tok/s", XMax: v.xmax(),
		Series: v.series(func(p *point) float64 { return math.Round(p.sum.throughput()) })}
}

// ttftChart draws p95 TTFT on a log axis: past its knee a queue grows
// without bound (sequential reaches minutes), and only a log axis shows
// those minutes and the batching policies' milliseconds on one chart.
func (v *sweepView) ttftChart() labs.Chart {
	p95 := func(p *point) float64 { return round1(percentile(p.sum.ttft, 95)) }
	return labs.Chart{ID: chartSweepTTFT, Kind: labs.ChartLine, Title: "p95 time to first token against request rate (log scale)",
		XLabel: "request rate", XUnit: "req/s", YLabel: "p95 TTFT", YUnit: "ms", XMax: v.xmax(), LogY: true,
		Series: v.series(p95),
		HLines: []labs.Mark{{Label: "TTFT limit", At: labs.Millis(v.plan.s.ttftSLO)}}}
}

func (v *sweepView) goodputChart() labs.Chart {
	ss := v.series(func(p *point) float64 { return round2(p.sum.goodput()) })
	offered := labs.Series{Name: "request rate", Dashed: true}
	for _, r := range v.plan.rates {
		offered.Points = append(offered.Points, labs.Point{X: r, Y: r})
	}
	return labs.Chart{ID: chartSweepGoodput, Kind: labs.ChartLine,
		Title:  fmt.Sprintf("Goodput: requests/s within TTFT ≤ %s and TPOT ≤ %s", fmtMS(labs.Millis(v.plan.s.ttftSLO)), fmtMS(labs.Millis(v.plan.s.tpotSLO))),
		XLabel: "request rate", XUnit: "req/s", YLabel: "goodput", YUnit: "req/s", XMax: v.xmax(), YMax: v.xmax(),
		Series: append(ss, offered)}
}

// best is the largest f over a policy's finished points.
func (v *sweepView) best(pi int, f func(*point) float64) float64 {
	var b float64
	for _, pt := range v.points[pi] {
		if pt != nil {
			b = max(b, f(pt))
		}
	}
	return b
}

func (v *sweepView) stats() []labs.Stat {
	out := []labs.Stat{{Key: "capacity_rps", Label: "Burst capacity (continuous)", Value: round2(v.plan.capacity), Unit: "req/s",
		Note: fmt.Sprintf("%d requests at once; sets the sweep's rates", sweepRequests)}}
	for pi, pol := range sweepPolicies {
		out = append(out, labs.Stat{Key: "peak_throughput_" + string(pol), Label: "Peak throughput, " + string(pol),
			Value: math.Round(v.best(pi, func(p *point) float64 { return p.sum.throughput() })), Unit: "tok/s"})
	}
	for pi, pol := range sweepPolicies {
		out = append(out, labs.Stat{Key: "goodput_" + string(pol), Label: "Best goodput, " + string(pol),
			Value: round2(v.best(pi, func(p *point) float64 { return p.sum.goodput() })), Unit: "req/s", Note: "requests/s within both limits"})
	}
	labs.Explain(out, v.sweepWhy())
	return out
}

func (v *sweepView) table() labs.Table {
	t := labs.Table{Title: "Sweep results",
		Columns: []string{"Policy", "Rate (req/s)", "Output tok/s", "TTFT p50 (ms)", "TTFT p95 (ms)", "TPOT p95 (ms)", "Goodput (req/s)", "Good requests", "Duration (ms)", "Preemptions"}}
	for pi, pol := range sweepPolicies {
		for _, pt := range v.points[pi] {
			if pt == nil {
				continue
			}
			s := pt.sum
			t.Rows = append(t.Rows, []string{string(pol), fmtNum(pt.rate), fmtNum(math.Round(s.throughput())),
				fmtNum(round1(percentile(s.ttft, 50))), fmtNum(round1(percentile(s.ttft, 95))), fmtNum(round1(percentile(s.tpot, 95))),
				fmtNum(round2(s.goodput())), fmt.Sprintf("%d of %d", s.good, s.completed), fmtNum(math.Round(labs.Millis(s.duration))), // ms like the other times: one unit per table
				strconv.FormatInt(pt.preempt, 10)})
		}
	}
	return t
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
