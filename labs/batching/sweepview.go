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
	total := len(sweepPolicies) * sweepRates
	status := fmt.Sprintf("Sweep: %s of %s points simulated (%s requests each). On a burst this GPU serves about %s req/s one at a time, %s in static batches and %s with continuous batching; each policy's rates run from %s to %s times its own figure.",
		labs.Thousands(v.done), labs.Thousands(total), labs.Thousands(sweepRequests), fmtNum(roundSig(v.plan.capacity[0], 2)), fmtNum(roundSig(v.plan.capacity[1], 2)),
		fmtNum(roundSig(v.plan.capacity[2], 2)), fmtNum(loadLow), fmtNum(loadHigh))
	if final {
		status = fmt.Sprintf("Sweep done: %s points of %s requests on %s, on the virtual clock. The rate axis is logarithmic so all three knees fit.",
			labs.Thousands(total), labs.Thousands(sweepRequests), v.plan.s.profile)
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

// xmax is the highest rate any policy runs at, so the axis never grows.
func (v *sweepView) xmax() float64 {
	var m float64
	for _, rs := range v.plan.rates {
		m = max(m, rs[len(rs)-1])
	}
	return labs.NiceCeil(m * 1.05)
}

func (v *sweepView) throughputChart() labs.Chart {
	return labs.Chart{ID: chartSweepThroughput, Title: "Output throughput by rate (log scales)", Kind: labs.ChartLine,
		XLabel: "request rate", XUnit: "req/s", YLabel: "output throughput", YUnit: "tok/s", XMax: v.xmax(), LogX: true, LogY: true,
		Series: v.series(func(p *point) float64 { return math.Round(p.sum.throughput()) })}
}

// ttftChart draws p95 TTFT on log axes: past its knee a queue grows
// without bound (sequential reaches minutes), and only a log axis shows
// those minutes and the batching policies' milliseconds on one chart; the
// policies' rates span a decade or more between them, so X is log too.
func (v *sweepView) ttftChart() labs.Chart {
	p95 := func(p *point) float64 { return round1(percentile(p.sum.ttft, 95)) }
	return labs.Chart{ID: chartSweepTTFT, Kind: labs.ChartLine, Title: "p95 TTFT by rate (log scales)",
		XLabel: "request rate", XUnit: "req/s", YLabel: "p95 TTFT", YUnit: "ms", XMax: v.xmax(), LogX: true, LogY: true,
		Series: v.series(p95),
		HLines: []labs.Mark{{Label: "TTFT limit", At: labs.Millis(v.plan.s.ttftSLO)}}}
}

func (v *sweepView) goodputChart() labs.Chart {
	ss := v.series(func(p *point) float64 { return round2(p.sum.goodput()) })
	// Every request within both limits: goodput equals the rate offered.
	lo := v.xmax()
	for _, rs := range v.plan.rates {
		lo = min(lo, rs[0])
	}
	offered := labs.Series{Name: "request rate", Dashed: true, Points: []labs.Point{{X: lo, Y: lo}, {X: v.xmax(), Y: v.xmax()}}}
	return labs.Chart{ID: chartSweepGoodput, Kind: labs.ChartLine,
		Title:  fmt.Sprintf("Goodput (TTFT ≤ %s, TPOT ≤ %s)", fmtMS(labs.Millis(v.plan.s.ttftSLO)), fmtMS(labs.Millis(v.plan.s.tpotSLO))),
		XLabel: "request rate", XUnit: "req/s", YLabel: "goodput", YUnit: "req/s", XMax: v.xmax(), YMax: v.xmax(), LogX: true, LogY: true,
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
	var out []labs.Stat
	for pi, pol := range sweepPolicies {
		out = append(out, labs.Stat{Key: "capacity_rps_" + string(pol), Label: "Burst capacity, " + string(pol), Value: round2(v.plan.capacity[pi]), Unit: "req/s",
			Note: fmt.Sprintf("%s requests at once; places this policy's rates", labs.Thousands(calibrationRequests(v.plan.s)))})
	}
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
				fmtNum(round2(s.goodput())), fmt.Sprintf("%s of %s", labs.Thousands(s.good), labs.Thousands(s.completed)),
				fmtNum(math.Round(labs.Millis(s.duration))), // ms like the other times: one unit per table
				labs.Thousands(int(pt.preempt))})
		}
	}
	return t
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// fmtNum writes a table cell as it was rounded, its thousands grouped
// ("171,268.1"), as every figure on the page is.
func fmtNum(x float64) string { return labs.Grouped(strconv.FormatFloat(x, 'f', -1, 64)) }
