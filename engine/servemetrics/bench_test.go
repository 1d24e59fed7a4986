package servemetrics

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// The observer runs on an engine's step goroutine, so what one finished
// request costs there is what delays the next step.
func BenchmarkRequestFinished(b *testing.B) {
	m, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	obs := m.Observer("bench", "llama-3.1-8b")
	gaps := make([]time.Duration, 255)
	for i := range gaps {
		gaps[i] = time.Duration(8+i%5) * time.Millisecond
	}
	r := live.RequestStats{Source: SourceLab, TokenGaps: gaps,
		Timing: engine.Timing{Arrival: 0, FirstToken: 40 * time.Millisecond, End: 2 * time.Second}}
	b.ReportAllocs()
	for b.Loop() {
		obs.RequestFinished(r)
	}
}

// A scrape with a dozen engines and three sources, Go and process series
// included.
func BenchmarkScrape(b *testing.B) {
	var engines []Engine
	for i := range 12 {
		engines = append(engines, Engine{Name: string(rune('a' + i)), Model: "m", Engine: fixedStats{Running: i}})
	}
	m, err := New(Config{Engines: func() []Engine { return engines }})
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range engines {
		for _, src := range []string{SourceAPI, SourceLab, SourceChat} {
			m.Observer(e.Name, e.Model).RequestFinished(live.RequestStats{Source: src, TokenGaps: []time.Duration{time.Millisecond}})
		}
	}
	h := m.Handler()
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
		_, _ = io.Copy(io.Discard, rec.Body)
	}
}
