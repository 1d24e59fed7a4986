package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/lessons"
)

// fakeLessons is a fixed course of two lessons; the first embeds the fake lab.
type fakeLessons struct{ ls []lessons.Lesson }

func newFakeLessons() fakeLessons {
	return fakeLessons{ls: []lessons.Lesson{
		{Slug: "first-token", Title: "Time to first token", Order: 1, Summary: "Why the first word matters.", Minutes: 6,
			Labs: []string{"ticker"}, HTML: "<p>Lesson <strong>body</strong> with a trusted <em>HTML</em> render.</p>",
			Drill: lessons.Drill{Question: "How do you cut TTFT?", Rubric: []string{"prefill cost", "queueing"},
				ModelAnswer: "<p>Shorter prompts and less queueing.</p>"}},
		{Slug: "batching", Title: "Batching", Order: 2, Summary: "Static vs continuous.", Minutes: 8,
			HTML: "<p>Batching body.</p>"},
	}}
}

func (f fakeLessons) All() []lessons.Lesson { return append([]lessons.Lesson(nil), f.ls...) }
func (f fakeLessons) Get(slug string) (lessons.Lesson, bool) {
	for _, l := range f.ls {
		if l.Slug == slug {
			return l, true
		}
	}
	return lessons.Lesson{}, false
}
func (f fakeLessons) Neighbours(slug string) (prev, next *lessons.Lesson) {
	for i, l := range f.ls {
		if l.Slug != slug {
			continue
		}
		if i > 0 {
			p := f.ls[i-1]
			prev = &p
		}
		if i+1 < len(f.ls) {
			n := f.ls[i+1]
			next = &n
		}
	}
	return prev, next
}

// tickerLab is a fake lab: it emits Steps frames, sleeping Gap between
// them through an injected sleep, and records how its context ended.
type tickerLab struct {
	sleep func(ctx context.Context, d time.Duration) error

	mu       sync.Mutex
	started  chan struct{} // closed at the first Run
	canceled chan struct{} // closed when a Run sees its context end
	once     sync.Once
	cOnce    sync.Once
}

func newTickerLab() *tickerLab {
	return &tickerLab{sleep: realSleep, started: make(chan struct{}), canceled: make(chan struct{})}
}

func realSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// tickerParams are the ticker lab's signals.
type tickerParams struct {
	Steps int
	GapMS int
	Mode  string
	Loud  bool
}

// Check is the cross-knob rule: a run may not last over ten minutes.
func (p tickerParams) Check() []labs.FieldError {
	if p.Steps*p.GapMS > 600000 {
		return []labs.FieldError{{Knob: "gapMs", Message: "Steps × gap must stay under ten minutes."}}
	}
	return nil
}

// kit declares the ticker lab through labs.Define, as every real lab does.
func (l *tickerLab) kit() *labs.Kit[tickerParams] { return l.kitWith(nil) }

// kitWith is kit with its Info changed by edit (nil: none).
func (l *tickerLab) kitWith(edit func(*labs.Info)) *labs.Kit[tickerParams] {
	defaults := tickerParams{Steps: 8, GapMS: 120, Mode: "words"}
	quick, long := defaults, defaults
	quick.Steps, quick.GapMS = 3, 50
	long.Steps, long.Loud = 40, true
	info := labs.Info{Slug: "ticker", Title: "Ticker lab", Summary: "Counts words out loud.", Lesson: "first-token",
		Prediction: "What time to first word do you expect?", PredictionUnit: "ms", PredictionStat: "first"}
	if edit != nil {
		edit(&info)
	}
	k, err := labs.Define(labs.Spec[tickerParams]{
		Info:     info,
		Defaults: defaults,
		Knobs: []labs.Field[tickerParams]{
			labs.Bind(labs.Knob{Name: "steps", Label: "Steps", Unit: "frames", Min: 1, Max: 400, Step: 1},
				func(p *tickerParams) *int { return &p.Steps }),
			labs.Bind(labs.Knob{Name: "gapMs", Label: "Gap", Unit: "ms", Min: 0, Max: 2000, Step: 1},
				func(p *tickerParams) *int { return &p.GapMS }),
			labs.Bind(labs.Knob{Name: "mode", Label: "Mode",
				Options: []labs.Option{{Value: "words", Label: "Words"}, {Value: "numbers", Label: "Numbers"}}},
				func(p *tickerParams) *string { return &p.Mode }),
			labs.Bind(labs.Knob{Name: "loud", Label: "Loud"}, func(p *tickerParams) *bool { return &p.Loud }),
		},
		Presets: []labs.Example[tickerParams]{{Name: "Quick", Note: "few steps", Params: quick}, {Name: "Long", Note: "many steps", Params: long}},
		Run:     l.run,
	})
	if err != nil {
		panic(err) // a mistake in this test file
	}
	return k
}

func (l *tickerLab) run(ctx context.Context, v tickerParams, emit func(labs.Frame)) error {
	l.once.Do(func() { close(l.started) })
	steps, gap := v.Steps, time.Duration(v.GapMS)*time.Millisecond
	body := ""
	var pts []labs.Point
	for i := 1; i <= steps; i++ {
		if err := l.sleep(ctx, gap); err != nil {
			l.cOnce.Do(func() { close(l.canceled) })
			return err
		}
		body += fmt.Sprintf("word%d ", i)
		pts = append(pts, labs.Point{X: float64(i), Y: float64(i)})
		emit(labs.Frame{
			Status: fmt.Sprintf("step %d of %d", i, steps),
			Stats:  []labs.Stat{{Key: "first", Label: "First word", Value: float64(gap.Milliseconds()), Unit: "ms"}, {Key: "n", Label: "Words", Value: float64(i)}},
			Text:   &labs.TextPanel{Title: "Answer", Body: body, Marks: []labs.Mark{{Label: "first word", At: float64(gap.Milliseconds())}}},
			Charts: []labs.Chart{{ID: "words", Title: "Words over time", Kind: labs.ChartLine, XLabel: "step", YLabel: "words",
				Series: []labs.Series{{Name: "words", Points: append([]labs.Point(nil), pts...)}}}},
		})
	}
	emit(labs.Frame{Final: true, Status: "Done: " + v.Mode,
		Stats: []labs.Stat{{Key: "first", Label: "First word", Value: float64(gap.Milliseconds()), Unit: "ms"}, {Key: "n", Label: "Words", Value: float64(steps)}},
		Text:  &labs.TextPanel{Title: "Answer", Body: body}})
	return nil
}

// testServer is a Server on a temp DB with the fake lessons and lab.
type testServer struct {
	*Server
	lab *tickerLab
	dir string
}

func newTestServer(t *testing.T, mod func(*Config)) *testServer {
	t.Helper()
	lab := newTickerLab()
	cat, err := labs.NewCatalog(lab.kit())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := Config{
		Addr:    "127.0.0.1:0",
		DBPath:  filepath.Join(dir, "test.db"),
		Catalog: cat,
		Lessons: newFakeLessons(),
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return &testServer{Server: s, lab: lab, dir: dir}
}

// client is a browser-like client with a cookie jar that does not follow
// redirects.
func client(t *testing.T) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func get(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func startHTTP(t *testing.T, s *testServer) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}
