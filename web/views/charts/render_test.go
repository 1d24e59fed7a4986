package charts

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/latencylab/latencylab/labs"
)

// node is a parsed XML element, enough to query rendered SVG.
type node struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []node     `xml:",any"`
	Text     string     `xml:",chardata"`
}

// child is n's first child element named tag (an empty node if none).
func (n node) child(tag string) node {
	for _, c := range n.Children {
		if c.XMLName.Local == tag {
			return c
		}
	}
	return node{}
}

func (n node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// walk visits n and its descendants depth first.
func (n node) walk(f func(node)) {
	f(n)
	for _, c := range n.Children {
		c.walk(f)
	}
}

// texts returns the text of every <text> element under n whose class list
// contains class, or of every <text> when class is empty; a text drawn in
// several <tspan> lines counts as one, its lines joined.
func (n node) texts(class string) []string {
	var out []string
	n.walk(func(m node) {
		if m.XMLName.Local == "text" && (class == "" || hasClass(m, class)) {
			s := m.Text
			for _, c := range m.Children {
				if c.XMLName.Local == "tspan" {
					s += c.Text
				}
			}
			out = append(out, strings.TrimSpace(s))
		}
	})
	return out
}

// under returns the <text> contents inside groups of the given class.
func (n node) under(class string) []string {
	var out []string
	n.walk(func(m node) {
		if m.XMLName.Local == "g" && hasClass(m, class) {
			for _, c := range m.Children {
				out = append(out, c.texts("")...)
			}
		}
	})
	return out
}

func (n node) count(elem string) int {
	k := 0
	n.walk(func(m node) {
		if m.XMLName.Local == elem {
			k++
		}
	})
	return k
}

func hasClass(n node, class string) bool {
	for _, c := range strings.Fields(n.attr("class")) {
		if c == class {
			return true
		}
	}
	return false
}

// render renders a component and parses it as XML, failing the test if
// the output is not one well-formed element.
func render(t *testing.T, c templ.Component) (string, node) {
	t.Helper()
	return renderCtx(t, context.Background(), c)
}

// renderCtx is render with ctx (which may carry WithWidth).
func renderCtx(t *testing.T, ctx context.Context, c templ.Component) (string, node) {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(ctx, &b); err != nil {
		t.Fatalf("render: %v", err)
	}
	var root node
	dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	dec.Strict = true
	if err := dec.Decode(&root); err != nil {
		t.Fatalf("output is not well-formed XML: %v\n%s", err, b.String())
	}
	if rest := strings.TrimSpace(b.String()[dec.InputOffset():]); rest != "" {
		t.Fatalf("output has content after the root element: %.80q", rest)
	}
	return b.String(), root
}

// checkRoot asserts the contract every chart keeps for Datastar patches.
func checkRoot(t *testing.T, c labs.Chart, out string, root node) {
	t.Helper()
	if root.XMLName.Local != "svg" {
		t.Fatalf("root element is <%s>, want <svg>", root.XMLName.Local)
	}
	if got := root.attr("id"); got != c.ID {
		t.Errorf("svg id = %q, want %q", got, c.ID)
	}
	if root.attr("viewBox") == "" || root.attr("role") != "img" || root.attr("aria-label") == "" {
		t.Errorf("svg lacks viewBox, role or aria-label: %v", root.Attrs)
	}
	if root.attr("width") != "100%" {
		t.Errorf("svg width = %q, want 100%%", root.attr("width"))
	}
	if len(root.Children) == 0 || root.Children[0].XMLName.Local != "title" {
		t.Errorf("first child of svg is not <title>")
	}
	// The text alternative: a <desc> the svg names as its description.
	if len(root.Children) < 2 || root.Children[1].XMLName.Local != "desc" {
		t.Errorf("second child of svg is not <desc>")
	} else if d := root.Children[1]; d.attr("id") == "" || d.attr("id") != root.attr("aria-describedby") || strings.TrimSpace(d.Text) == "" {
		t.Errorf("desc id %q, svg aria-describedby %q, desc text %q: want the same id and a text", d.attr("id"), root.attr("aria-describedby"), d.Text)
	}
	for _, bad := range []string{"NaN", "Inf", "<script"} {
		if strings.Contains(out, bad) {
			t.Errorf("output contains %q", bad)
		}
	}
}

func TestEveryKindRenders(t *testing.T) {
	for _, c := range examples() {
		t.Run(string(c.Kind), func(t *testing.T) {
			out, root := render(t, Chart(c))
			checkRoot(t, c, out, root)
			if got := root.texts("ch-title"); len(got) != 1 || got[0] != c.Title {
				t.Errorf("title texts = %q, want [%q]", got, c.Title)
			}
			if len(root.under("ch-tick-x")) < 2 {
				t.Errorf("X axis has %d tick labels, want at least 2", len(root.under("ch-tick-x")))
			}
			if len(root.under("ch-tick-y")) < 2 {
				t.Errorf("Y axis has %d tick labels, want at least 2", len(root.under("ch-tick-y")))
			}
			if got := root.texts("ch-note"); len(got) != 0 {
				t.Errorf("chart with data shows note %q", got)
			}
		})
	}
}

// contains reports whether want is among got.
func contains(got []string, want string) bool {
	for _, g := range got {
		if g == want {
			return true
		}
	}
	return false
}

func TestChartContent(t *testing.T) {
	ex := map[labs.ChartKind]labs.Chart{}
	for _, c := range examples() {
		ex[c.Kind] = c
	}
	tests := []struct {
		kind   labs.ChartKind
		legend []string
		xTicks []string // a few expected X tick labels
		yTicks []string
		labels []string // texts over the data: marks, hlines, totals
		elem   string   // an element the data must produce
		min    int      // at least this many of elem
	}{
		{labs.ChartLine, []string{"streamed", "buffered", "reading speed"}, []string{"0 s", "1 s", "6 s"}, []string{"0", "100", "200"},
			[]string{"first word 412 ms", "full answer 5.2 s", "answer length 134 words"}, "path", 3},
		{labs.ChartArea, []string{"decode"}, []string{"0 s", "30 s"}, []string{"0", "1k", "2k"}, nil, "path", 2},
		{labs.ChartStackedBar, []string{"network", "queued", "prefill", "decode", "retrieval", "moderation"}, []string{"baseline", "+ RAG", "+ moderation", "parallel"},
			[]string{"0 s", "0.5 s", "1 s"}, []string{"370 ms", "830 ms", "1.08 s", "770 ms", "budget 800 ms"}, "rect", 4 + 5 + 6 + 5},
		{labs.ChartTimeline, []string{"queued", "prefill", "decode"}, []string{"0 s", "1 s"}, []string{"req 1", "req 3"}, nil, "rect", 72},
		{labs.ChartHistogram, nil, []string{"0.4 s", "1 s"}, []string{"0", "100"}, []string{"p50 448 ms", "mean 471 ms", "p95 632 ms", "p99 780 ms"}, "rect", 20},
		{labs.ChartScatter, []string{"measured steps", "fit"}, []string{"0", "20", "80"}, []string{"0 ms", "40 ms"}, nil, "circle", 60},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			_, root := render(t, Chart(ex[tt.kind]))
			legend := root.under("ch-legend")
			if len(legend) != len(tt.legend) {
				t.Errorf("legend = %q, want %q", legend, tt.legend)
			}
			for _, want := range tt.legend {
				if !contains(legend, want) {
					t.Errorf("legend %q lacks %q", legend, want)
				}
			}
			xt, yt := root.under("ch-tick-x"), root.under("ch-tick-y")
			for _, want := range tt.xTicks {
				if !contains(xt, want) {
					t.Errorf("X ticks %q lack %q", xt, want)
				}
			}
			for _, want := range tt.yTicks {
				if !contains(yt, want) {
					t.Errorf("Y ticks %q lack %q", yt, want)
				}
			}
			labels := root.texts("ch-label")
			labels = append(labels, root.under("ch-label")...)
			for _, want := range tt.labels {
				if !contains(labels, want) {
					t.Errorf("labels %q lack %q", labels, want)
				}
			}
			var data node
			root.walk(func(m node) {
				if m.XMLName.Local == "g" && hasClass(m, "ch-data") {
					data = m
				}
			})
			if n := data.count(tt.elem); n < tt.min {
				t.Errorf("%d <%s> in the data, want at least %d", n, tt.elem, tt.min)
			}
		})
	}
}

func TestAxisTitles(t *testing.T) {
	c := examples()[1] // area: throughput in tok/s over time in s
	_, root := render(t, Chart(c))
	got := root.texts("ch-axis-title")
	for _, want := range []string{"Time", "Throughput (tok/s)"} {
		if !contains(got, want) {
			t.Errorf("axis titles %q lack %q", got, want)
		}
	}
}

func TestEscaping(t *testing.T) {
	evil := `<script>alert("x")</script>`
	cases := []labs.Chart{
		{ID: "e1", Title: evil, Kind: labs.ChartLine, XLabel: evil, YLabel: evil, YUnit: evil,
			Series: []labs.Series{{Name: evil, Points: []labs.Point{{X: 0, Y: 1}, {X: 1, Y: 2}}}},
			Marks:  []labs.Mark{{Label: evil, At: 0.5}}, HLines: []labs.Mark{{Label: evil, At: 1.5}}},
		{ID: "e2", Kind: labs.ChartStackedBar, Bars: []labs.BarGroup{{Label: evil, Segments: []labs.Segment{{Name: evil, Value: 3}}}}},
		{ID: "e3", Kind: labs.ChartTimeline, Rows: []labs.SpanRow{{Label: evil, Spans: []labs.Span{{Name: evil, Start: 0, End: 1}}}}},
		{ID: `"><script>`, Kind: labs.ChartScatter, Series: []labs.Series{{Name: evil, Points: []labs.Point{{X: 1, Y: 1}}}}},
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			out, root := render(t, Chart(c))
			if strings.Contains(out, "<script") {
				t.Fatalf("unescaped user text in output")
			}
			found := false
			root.walk(func(m node) {
				if strings.Contains(m.Text, "<script>") { // decoded text keeps it, as text
					found = true
				}
			})
			if !found {
				t.Errorf("the series name was dropped instead of escaped")
			}
			if clip := root.child("defs").Children[0].attr("id"); strings.ContainsAny(clip, `"<>() #`) {
				t.Errorf("clip id %q is not safe inside url()", clip)
			}
		})
	}
}

func TestEmptyData(t *testing.T) {
	kinds := []labs.ChartKind{labs.ChartLine, labs.ChartArea, labs.ChartStackedBar, labs.ChartTimeline, labs.ChartHistogram, labs.ChartScatter}
	for _, k := range kinds {
		for _, c := range []labs.Chart{
			{ID: "x", Kind: k},
			{ID: "x", Kind: k, Title: "Empty", XLabel: "Time", XUnit: "ms", YLabel: "Tokens", XMax: 5000, YMax: 200},
			{ID: "x", Kind: k, Series: []labs.Series{{Name: "a"}}, Bars: []labs.BarGroup{{Label: "g"}}, Rows: []labs.SpanRow{{Label: "r"}},
				Hist: &labs.Histogram{BinWidth: 0, Counts: []int{1, 2}}},
		} {
			t.Run(string(k), func(t *testing.T) {
				out, root := render(t, Chart(c))
				checkRoot(t, c, out, root)
				if got := root.texts("ch-note"); len(got) != 1 || got[0] != waitingNote {
					t.Errorf("note = %q, want %q", got, waitingNote)
				}
				var axes int
				root.walk(func(m node) {
					if m.XMLName.Local == "g" && hasClass(m, "ch-axis") {
						axes = m.count("line")
					}
				})
				if axes == 0 {
					t.Errorf("empty chart draws no axes")
				}
				if c.XMax == 5000 && k != labs.ChartStackedBar && !contains(root.under("ch-tick-x"), "5 s") {
					t.Errorf("XMax 5000 ms: X ticks %q lack 5 s", root.under("ch-tick-x"))
				}
			})
		}
	}
}

func TestUnknownKind(t *testing.T) {
	c := labs.Chart{ID: "u", Kind: "pie"}
	out, root := render(t, Chart(c))
	checkRoot(t, c, out, root)
	if got := root.texts("ch-note"); len(got) != 1 || !strings.Contains(got[0], "pie") {
		t.Errorf("note = %q, want it to name the kind", got)
	}
}

func TestFixedAxisEnds(t *testing.T) {
	c := labs.Chart{ID: "f", Kind: labs.ChartLine, XUnit: "ms", XMax: 8000, YMax: 300,
		Series: []labs.Series{{Name: "s", Points: []labs.Point{{X: 0, Y: 0}, {X: 1000, Y: 40}}}}}
	_, root := render(t, Chart(c))
	if xt := root.under("ch-tick-x"); xt[len(xt)-1] != "8 s" {
		t.Errorf("X ticks %q do not end at XMax 8 s", xt)
	}
	if yt := root.under("ch-tick-y"); yt[len(yt)-1] != "300" {
		t.Errorf("Y ticks %q do not end at YMax 300", yt)
	}
}

func TestLogX(t *testing.T) {
	c := labs.Chart{ID: "l", Kind: labs.ChartLine, LogX: true,
		Series: []labs.Series{{Name: "s", Points: []labs.Point{{X: 0, Y: 5}, {X: 1, Y: 1}, {X: 10, Y: 2}, {X: 1000, Y: 3}}}}}
	out, root := render(t, Chart(c))
	checkRoot(t, c, out, root)
	if v := buildXY(c, viewW); len(v.XMinor) != 3*8 {
		t.Errorf("%d minor gridlines over three decades, want 24", len(v.XMinor))
	}
	xt := root.under("ch-tick-x")
	for _, want := range []string{"1", "10", "100", "1k"} {
		if !contains(xt, want) {
			t.Errorf("log X ticks %q lack %q", xt, want)
		}
	}
}

func TestTimelineManyRowsThinsLabels(t *testing.T) {
	var rows []labs.SpanRow
	for i := 0; i < 64; i++ {
		rows = append(rows, labs.SpanRow{Label: fmt.Sprintf("r%d", i), Spans: []labs.Span{{Name: "decode", Start: float64(i), End: float64(i + 10)}}})
	}
	_, root := render(t, Chart(labs.Chart{ID: "t", Kind: labs.ChartTimeline, Rows: rows}))
	labels := root.under("ch-tick-y")
	if len(labels) >= 64 || len(labels) < 10 {
		t.Errorf("%d row labels for 64 rows, want thinned to between 10 and 63", len(labels))
	}
	var data node
	root.walk(func(m node) {
		if m.XMLName.Local == "g" && hasClass(m, "ch-data") {
			data = m
		}
	})
	if n := data.count("rect"); n != 64 {
		t.Errorf("%d spans drawn, want 64", n)
	}
}

func TestHistogramMarkLabelsDoNotOverlap(t *testing.T) {
	c := labs.Chart{ID: "h", Kind: labs.ChartHistogram, XUnit: "ms",
		Hist: &labs.Histogram{Start: 0, BinWidth: 10, Counts: []int{1, 5, 9, 4, 2, 1},
			Marks: []labs.Mark{{Label: "p50", At: 21}, {Label: "mean", At: 23}, {Label: "p95", At: 41}, {Label: "p99", At: 48}}}}
	v := buildHistogram(c, viewW)
	if len(v.VMarks) != 4 {
		t.Fatalf("%d marks, want 4", len(v.VMarks))
	}
	for i, a := range v.VMarks {
		for _, b := range v.VMarks[i+1:] {
			if a.LY != b.LY {
				continue
			}
			al, ar := labelSpan(a)
			bl, br := labelSpan(b)
			if al < br && bl < ar {
				t.Errorf("labels %q and %q overlap on one row", a.Label, b.Label)
			}
		}
	}
}

func labelSpan(m vmark) (float64, float64) {
	w := labelWidth(m.Label)
	if m.Anchor == "end" {
		return m.LX - w, m.LX
	}
	return m.LX, m.LX + w
}

// TestRandomChartsStayWellFormed throws seeded random data, including NaN,
// Inf, negatives and empty parts, at every kind.
func TestRandomChartsStayWellFormed(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	val := func() float64 {
		switch rng.IntN(12) {
		case 0:
			return math.NaN()
		case 1:
			return math.Inf(1 - 2*rng.IntN(2))
		case 2:
			return 0
		case 3:
			return -rng.Float64() * 100
		}
		return rng.Float64() * math.Pow(10, float64(rng.IntN(7)-2))
	}
	kinds := []labs.ChartKind{labs.ChartLine, labs.ChartArea, labs.ChartStackedBar, labs.ChartTimeline, labs.ChartHistogram, labs.ChartScatter}
	units := []string{"", "ms", "s", "tok/s", "%", "tokens"}
	for i := 0; i < 300; i++ {
		c := labs.Chart{ID: fmt.Sprintf("r%d", i), Kind: kinds[i%len(kinds)], Title: "random",
			XUnit: units[rng.IntN(len(units))], YUnit: units[rng.IntN(len(units))], LogX: rng.IntN(4) == 0}
		if rng.IntN(3) == 0 {
			c.XMax, c.YMax = val(), val()
		}
		for s := 0; s < rng.IntN(4); s++ {
			var ps []labs.Point
			for p := 0; p < rng.IntN(30); p++ {
				ps = append(ps, labs.Point{X: val(), Y: val()})
			}
			c.Series = append(c.Series, labs.Series{Name: fmt.Sprint("s", s), Points: ps, Dashed: rng.IntN(2) == 0})
		}
		for g := 0; g < rng.IntN(8); g++ {
			c.Bars = append(c.Bars, labs.BarGroup{Label: "g", Segments: []labs.Segment{{Name: "a", Value: val()}, {Name: "b", Value: val()}}})
		}
		for r := 0; r < rng.IntN(70); r++ {
			c.Rows = append(c.Rows, labs.SpanRow{Label: "row", Spans: []labs.Span{{Name: "decode", Start: val(), End: val()}}})
		}
		if rng.IntN(2) == 0 {
			c.Hist = &labs.Histogram{Start: val(), BinWidth: val(), Counts: []int{rng.IntN(5), -1, rng.IntN(50)}, Marks: []labs.Mark{{Label: "p50", At: val()}}}
		}
		c.Marks = []labs.Mark{{Label: "m", At: val()}}
		c.HLines = []labs.Mark{{Label: "h", At: val()}}
		out, root := render(t, Chart(c))
		checkRoot(t, c, out, root)
	}
}

func TestStackedBarLongLabelsSlant(t *testing.T) {
	var gs []labs.BarGroup
	for i := 0; i < 16; i++ {
		gs = append(gs, labs.BarGroup{Label: fmt.Sprint("batch size ", i), Segments: []labs.Segment{{Name: "decode", Value: float64(i + 1)}}})
	}
	v := buildStackedBar(labs.Chart{ID: "b", Kind: labs.ChartStackedBar, Bars: gs}, viewW)
	if !v.XRotate {
		t.Fatalf("16 long labels are not slanted")
	}
	if len(v.XTicks) < 8 {
		t.Errorf("only %d of 16 category labels shown", len(v.XTicks))
	}
	for _, tk := range v.XTicks {
		// Only labels near the left edge may be cut to stay in the box.
		if tk.Pos > 120 && strings.HasSuffix(tk.Label, "…") {
			t.Errorf("slanted label %q truncated", tk.Label)
		}
	}
	short := buildStackedBar(labs.Chart{ID: "b", Kind: labs.ChartStackedBar, Bars: gs[:3]}, viewW)
	if short.XRotate {
		t.Errorf("three short labels slanted")
	}
}
