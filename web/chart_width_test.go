package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/views/charts"
)

// The width a page sends with a run sets the charts' layout; anything
// odd falls back to the default, never fails the run.
func TestChartContextFollowsTheMeasuredWidth(t *testing.T) {
	c := labs.Chart{ID: "ttft", Kind: labs.ChartLine, Title: "TTFT",
		Series: []labs.Series{{Name: "a", Points: []labs.Point{{X: 0, Y: 1}, {X: 1, Y: 2}}}}}
	for _, tc := range []struct {
		name string
		raw  json.RawMessage
		want string
	}{
		{"phone", json.RawMessage(`360`), `viewBox="0 0 334 `},
		{"desktop", json.RawMessage(`900`), `viewBox="0 0 440 `},
		{"not sent", nil, `viewBox="0 0 440 `},
		{"zero (never measured)", json.RawMessage(`0`), `viewBox="0 0 440 `},
		{"not a number", json.RawMessage(`"wide"`), `viewBox="0 0 440 `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := charts.Chart(c).Render(chartContext(context.Background(), tc.raw), &b); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("chart %.120q, want %s", b.String(), tc.want)
			}
		})
	}
}

// A saved run and a comparison, opened later, are laid out for the width
// the learner's last run measured (kept in a cookie); without one, or with
// a value that is not a width, they keep the default layout.
func TestSavedRunChartsFollowTheWidthCookie(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	a := seedRun(t, s, alice, "ticker", 0, 3, true)
	b := seedRun(t, s, alice, "ticker", time.Minute, 5, true)
	pages := map[string]string{
		"run":     runURL("ticker", a),
		"compare": compareURL("ticker", a, b),
	}
	for _, tc := range []struct {
		cookie string
		want   string
	}{
		{"360", `viewBox="0 0 334 `},
		{"", `viewBox="0 0 440 `},
		{"wide", `viewBox="0 0 440 `},
		{"-5", `viewBox="0 0 440 `},
	} {
		for name, path := range pages {
			t.Run(name+"/"+tc.cookie, func(t *testing.T) {
				c := learnerClient(t, ts.URL, alice)
				if tc.cookie != "" {
					u, _ := url.Parse(ts.URL)
					c.Jar.SetCookies(u, []*http.Cookie{{Name: chartWidthCookie, Value: tc.cookie, Path: "/"}})
				}
				resp, body := get(t, c, ts.URL+path)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("status %d: %.200s", resp.StatusCode, body)
				}
				if !strings.Contains(body, tc.want) {
					t.Errorf("page draws its chart without %s", tc.want)
				}
			})
		}
	}
}
