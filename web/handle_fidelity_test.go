package web

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/fidelity"
)

// TestFidelityPage checks the reference table as a learner gets it: every
// reference is listed with a link to its source, and the held-out median
// the page shows is the one the fidelity package computes from the same
// code.
func TestFidelityPage(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	resp, body := get(t, client(t), ts.URL+fidelityURL)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	set, err := fidelity.Load()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := fidelity.Evaluate(set)
	if err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(body)
	for _, r := range set.Runs {
		if n := strings.Count(page, `data-run="`+r.ID+`"`); n != len(r.Metrics) {
			t.Errorf("%s: %d rows, want one per figure (%d)", r.ID, n, len(r.Metrics))
		}
		if !strings.Contains(page, `href="`+r.URL+`"`) {
			t.Errorf("%s: no link to %s", r.ID, r.URL)
		}
	}
	for _, n := range set.Notes {
		if !strings.Contains(page, n) {
			t.Errorf("note missing from the page: %.60s…", n)
		}
	}
	m := regexp.MustCompile(`id="fid-heldout-median">([^<]*)<`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no held-out median on the page")
	}
	if want := pct(rep.HeldOutMedian); m[1] != want {
		t.Errorf("page shows held-out median %q, the fidelity package computes %q", m[1], want)
	}
	for _, w := range []struct {
		id  string
		row fidelity.Row
	}{{"fid-worst-held", rep.WorstHeldOut}, {"fid-worst-fitted", rep.WorstFitted}} {
		m := regexp.MustCompile(`id="` + w.id + `">[^:]*: ([^<]*)\.`).FindStringSubmatch(page)
		if m == nil {
			t.Errorf("no #%s line on the page", w.id)
			continue
		}
		if want := fmt.Sprintf("%s, %s: measured %s, modelled %s (%+.1f%%)", w.row.Run.ID, fidelity.MetricLabel(w.row.Metric),
			figure(w.row.Measured), figure(w.row.Modelled), 100*w.row.Error()); m[1] != want {
			t.Errorf("#%s says %q, the report computes %q", w.id, m[1], want)
		}
	}
	// On a phone the wide table says it scrolls, inside its own scroller.
	wrap := regexp.MustCompile(`(?s)<div class="table-wrap"[^>]*aria-labelledby="fid-table"[^>]*>\s*<table class="fid-rows">\s*<caption><span class="scroll-hint">([^<]*)</span></caption>`).FindStringSubmatch(page)
	if wrap == nil {
		t.Error(`the "Every figure" table has no scroll hint in its caption`)
	} else if cols := strings.Count(page[strings.Index(page, `class="fid-rows"`):strings.Index(page, "</thead>")], "<th "); wrap[1] != fmt.Sprintf("Scroll sideways for all %d columns →", cols) {
		t.Errorf("scroll hint %q, the table has %d columns", wrap[1], cols)
	}
	if want := fmt.Sprintf("%d result sets from %d independent publishers.", len(set.Sources), set.Publishers()); !strings.Contains(page, want) {
		t.Errorf("page lacks %q", want)
	}
	if bad := regexp.MustCompile(`\b1 (requests|figures|prompts)\b`).FindString(page); bad != "" {
		t.Errorf("page says %q: one of a counted noun is singular", bad)
	}
}

// TestFidelityNote checks the line under a lab's stats: it links to the
// table, and names each kind's median once the table is ready.
func TestFidelityNote(t *testing.T) {
	s := newTestServer(t, nil)
	rep, err := s.fidelity.wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := s.fidelity.note()
	if n.URL != fidelityURL {
		t.Errorf("note links to %q, want %q", n.URL, fidelityURL)
	}
	if len(n.Within) != len(rep.ByKind) {
		t.Fatalf("note has %d kinds, report %d: %v", len(n.Within), len(rep.ByKind), n.Within)
	}
	want := pct(rep.ByKind[fidelity.TPOT]) + " on " + fidelity.TPOT.Label()
	found := false
	for _, w := range n.Within {
		found = found || w == want
	}
	if !found {
		t.Errorf("note %v lacks %q", n.Within, want)
	}
	ts := startHTTP(t, s)
	_, body := get(t, client(t), ts.URL+"/labs/ticker")
	if !strings.Contains(html.UnescapeString(body), want) || !strings.Contains(body, `href="`+fidelityURL+`"`) {
		t.Errorf("lab page lacks the fidelity line %q with its link", want)
	}
}

// TestFidelityFooterLink checks every page's footer links to the table.
func TestFidelityFooterLink(t *testing.T) {
	ts := startHTTP(t, newTestServer(t, nil))
	for _, path := range []string{"/", "/labs", "/lessons"} {
		_, body := get(t, client(t), ts.URL+path)
		if !strings.Contains(body, `href="`+fidelityURL+`"`) {
			t.Errorf("%s: footer has no link to %s", path, fidelityURL)
		}
	}
}
