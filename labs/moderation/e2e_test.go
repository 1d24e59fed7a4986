package moderation

import (
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserModerationPolicies runs the three presets a learner compares
// first in headless Chromium on the wall clock: streaming first lets unsafe
// tokens reach the screen, holding the answer (whole or by window) lets
// none through and no e-mail address shows; the generated-vs-delivered
// chart draws both fronts.
func TestBrowserModerationPolicies(t *testing.T) {
	lab, pg := labtest.BrowseLab(t, func(pool *labs.Engines) *Lab { return mustNew(t, Config{Engines: pool}) })
	b := pg.Tab
	play := labtest.Play{Knobs: []string{knobPolicy}, Guess: "3", Changes: 3, Timeout: 2 * time.Minute,
		Until: `!!document.querySelector('#lab-moderation-stats [data-stat="total_ms"]')`}
	// Record whether the reader's text ever showed an e-mail address, not
	// just at the end: a leak is later replaced.
	play.Before = func(t *testing.T) {
		e2e.Eval[bool](t, b, `(() => { window.__sawAt = false;
			new MutationObserver(() => { const el = document.querySelector("#lab-moderation-text .text-body");
				if (el && el.textContent.includes("@")) window.__sawAt = true })
				.observe(document.getElementById("lab-moderation"), {subtree: true, childList: true, characterData: true}); return true })()`)
	}
	play.Check = func(t *testing.T, i int, p labs.Preset) {
		policy := p.Values[knobPolicy].(string)
		leaked, _ := labtest.ShownStat(t, pg, statLeaked)
		shown := e2e.Eval[string](t, b, `(document.querySelector("#lab-moderation-text .text-body") || {textContent: ""}).textContent`)
		sawAt := e2e.Eval[bool](t, b, `window.__sawAt`)
		if i == 0 {
			if leaked <= 0 {
				t.Errorf("stream-then-moderate: %v unsafe tokens shown, want some to leak before the check catches up", leaked)
			}
			if !sawAt {
				t.Errorf("stream-then-moderate: the e-mail address never appeared in the reader's text")
			}
		} else {
			if leaked != 0 {
				t.Errorf("%s: %v unsafe tokens shown, want 0", policy, leaked)
			}
			if sawAt || strings.Contains(shown, "@") {
				t.Errorf("%s: the reader's text showed an e-mail address (now %q)", policy, shown)
			}
		}
		if strings.TrimSpace(shown) == "" {
			t.Errorf("%s: the reader saw no text at all", policy)
		}
		paths := e2e.Eval[int](t, b, `[...document.querySelectorAll("#lab-moderation-fronts .ch-data path")].filter(p => (p.getAttribute("d") || "").length > 4).length`)
		if paths < 2 {
			t.Errorf("generated-vs-delivered chart draws %d paths, want both fronts", paths)
		}
		card := e2e.Eval[string](t, b, `(document.querySelector("#lab-moderation-stats .stat.has-guess") || {textContent: ""}).textContent`)
		if !strings.Contains(card, "You predicted") {
			t.Errorf("prediction card = %q", card)
		}
		t.Logf("%s: %v unsafe tokens shown", policy, leaked)
	}
	labtest.PlayPresets(t, lab, pg, play, 0, 1, 2)
}
