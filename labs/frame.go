package labs

// Frame is one update of a run's panels. Frames are plain data; the web layer
// renders each field it finds. A later frame replaces the earlier one whole,
// so every frame carries the complete current state of each panel it sets.
type Frame struct {
	Final  bool   // the run has ended; this frame holds the summary
	Status string // one line: what the run is doing or how it ended
	Error  string // set when the run failed; shown to the learner
	// Missed marks a final frame whose run worked but missed the target it
	// is judged by (a latency budget): the page shows it as a warning, not
	// as a success.
	Missed bool
	Stats  []Stat
	Text   *TextPanel
	Charts []Chart
	Tables []Table
}

// Stat is one headline figure measured by the run.
type Stat struct {
	Key   string // stable identifier, used for predictions and summaries
	Label string
	Value float64
	Unit  string // "ms", "tok/s", "tokens", "%", …
	Note  string // short context, e.g. "measured at the handler"
	// Why is the formula behind the figure with this run's numbers filled
	// in, naming the term that dominated; empty when there is none.
	Why string
}

// TextPanel is text delivered to the learner, as they would have seen it.
type TextPanel struct {
	Title string
	// Note is one line under the title on where the text comes from,
	// e.g. a server run's composed words (see ComposedNote); "" for none.
	Note string
	Body string
	// Marks are events along the delivery, e.g. "first word at 412 ms".
	Marks []Mark
}

// ChartKind selects the chart component.
type ChartKind string

// Chart kinds; every lab draws with these.
const (
	ChartLine       ChartKind = "line"       // series of points over X
	ChartArea       ChartKind = "area"       // like line, filled to zero
	ChartStackedBar ChartKind = "stackedbar" // categories with stacked segments
	ChartTimeline   ChartKind = "timeline"   // one row per item, spans along X
	ChartHistogram  ChartKind = "histogram"  // bins with percentile marks
	ChartScatter    ChartKind = "scatter"    // points, optionally with a fitted line series
)

// Chart is the data for one chart; only the fields of its Kind are used.
type Chart struct {
	ID     string // stable DOM id within the lab page
	Title  string
	Kind   ChartKind
	XLabel string
	XUnit  string
	YLabel string
	YUnit  string
	// XMax/YMax fix an axis end when > 0 (so a live chart does not rescale
	// every frame); otherwise axes fit the data.
	XMax float64
	YMax float64
	LogX bool
	// LogY draws the Y axis on a log10 scale (decade ticks, minor
	// gridlines); values ≤ 0 are left out. For data spanning decades, such
	// as a roofline or latencies from milliseconds to minutes.
	LogY bool

	Series []Series   // line, area, scatter
	Bars   []BarGroup // stackedbar
	Rows   []SpanRow  // timeline
	Hist   *Histogram // histogram
	Marks  []Mark     // vertical reference lines (e.g. "first word")
	HLines []Mark     // horizontal reference lines (e.g. a budget)
}

// Point is one (x, y) sample.
type Point struct{ X, Y float64 }

// Series is a named line of points.
type Series struct {
	Name   string
	Points []Point
	Dashed bool // reference lines such as reading speed
	// Colour fixes the series' colour (#rrggbb), e.g. to keep two runs'
	// series apart when they are overlaid; empty picks one by name.
	Colour string
}

// BarGroup is one category of a stacked bar chart.
type BarGroup struct {
	Label    string
	Segments []Segment
}

// Segment is one part of a stacked bar.
type Segment struct {
	Name  string // legend entry; the same name gets the same colour
	Value float64
}

// SpanRow is one row of a timeline, e.g. one request.
type SpanRow struct {
	Label string
	Spans []Span
}

// Span is an interval on a timeline row.
type Span struct {
	Name  string // legend entry: "queued", "prefill", "decode", …
	Start float64
	End   float64
}

// Histogram is binned data with percentile marks.
type Histogram struct {
	BinWidth float64
	Start    float64
	Counts   []int
	// Marks are p50, p95, p99, mean and the like, drawn as vertical lines.
	Marks []Mark
}

// Mark is a labelled reference at a position on an axis (or a moment in a text delivery).
type Mark struct {
	Label string
	At    float64
}

// Table is a small table of results, e.g. a comparison of runs or policies.
type Table struct {
	Title   string
	Columns []string
	Rows    [][]string
}
