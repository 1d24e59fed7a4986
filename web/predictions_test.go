package web

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// twoGuessServer is the test server with a ticker lab that asks for two
// numbers, as a lesson's "Try it" can.
func twoGuessServer(t *testing.T) *testServer {
	t.Helper()
	var lab *tickerLab
	s := newTestServer(t, func(cfg *Config) {
		lab = newTickerLab()
		cat, err := labs.NewCatalog(lab.kitWith(func(i *labs.Info) {
			i.Second = labs.SecondPrediction{Prediction: "And how many words?", Unit: "words", Stat: "n"}
		}))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Catalog = cat
	})
	s.lab = lab
	return s
}

// The page asks for both numbers and keeps Run locked until both are
// typed (or skipped); a lab with one prediction asks for one.
func TestTwoPredictionsOnThePage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		server func(*testing.T) *testServer
		want   []string
		absent []string
	}{
		{"two", twoGuessServer, []string{`id="lab-ticker-guess2"`, "And how many words?", "labTickerGuess2", "Commit to both numbers", `id="lab-ticker-err-guess2"`}, nil},
		{"one", func(t *testing.T) *testServer { return newTestServer(t, nil) }, []string{`id="lab-ticker-guess"`},
			[]string{`id="lab-ticker-guess2"`, "Commit to both numbers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := startHTTP(t, tc.server(t))
			_, page := get(t, client(t), ts.URL+"/labs/ticker")
			for _, w := range tc.want {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(page, a) {
					t.Errorf("page has %q", a)
				}
			}
		})
	}
}

// Both guesses are compared on their stats' cards, saved with the run,
// listed and shown again when the run is reopened; a bad second guess is
// refused under its own box.
func TestTwoPredictionsRunSaveAndReopen(t *testing.T) {
	s := twoGuessServer(t)
	ts := startHTTP(t, s)
	c := client(t)
	get(t, c, ts.URL+"/labs/ticker")
	resp := postRun(t, context.Background(), c, ts.URL, `{"labTicker":{"steps":3,"gapMs":5},"labTickerGuess":"7","labTickerGuess2":"0"}`)
	var cards string
	_ = readEvents(resp.Body, func(e sseEvent) bool {
		if e.selector() == "#lab-ticker-stats" {
			cards = e.html()
		}
		return true
	})
	resp.Body.Close()
	if n := strings.Count(cards, "You predicted"); n != 2 {
		t.Errorf("%d guesses on the final cards, want 2: %s", n, cards)
	}
	_, list := get(t, c, ts.URL+"/labs/ticker/runs")
	for _, w := range []string{"Your prediction (First word)", "Your prediction (Words)", "7 ms", "0 words"} {
		if !strings.Contains(list, w) {
			t.Errorf("run list lacks %q", w)
		}
	}
	m := regexp.MustCompile(`/labs/ticker/runs/([0-9]+)`).FindStringSubmatch(list)
	if m == nil {
		t.Fatal("the run list links no saved run")
	}
	_, page := get(t, c, ts.URL+m[0])
	if n := strings.Count(page, "You predicted"); n != 2 {
		t.Errorf("the reopened run shows %d guesses, want 2", n)
	}

	bad := postRun(t, context.Background(), c, ts.URL, `{"labTicker":{},"labTickerGuess":"7","labTickerGuess2":"lots"}`)
	defer bad.Body.Close()
	found := false
	_ = readEvents(bad.Body, func(e sseEvent) bool {
		found = found || e.selector() == "#lab-ticker-err-guess2" && strings.Contains(e.html(), "must be a number")
		return true
	})
	if bad.StatusCode != 422 || !found {
		t.Errorf("bad second guess: status %d, message under its box %v", bad.StatusCode, found)
	}
}
