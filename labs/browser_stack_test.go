package labs_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// walkStack runs the stack lab's laptop, production and fixed presets on
// the wall clock: the words-on-screen chart fills in, the three hop tables
// arrive with raw events shown escaped, the guess sits on the first-word
// card, and the browser sees a burst per token without the buffering
// proxy and one burst behind it.
func walkStack(t *testing.T, lab labs.Lab, pg e2e.Lab) {
	b := pg.Tab
	for _, i := range []int{0, 1, 4} {
		p := lab.Presets()[i]
		proxy, buffering := p.Values["proxy"].(bool), p.Values["buffering"].(bool)
		play := labtest.Play{Knobs: []string{"bufferBytes", "flushMS"}, Guess: "400", Changes: 2, Timeout: 60 * time.Second}
		play.Before = func(t *testing.T) {
			e2e.WaitFor(t, b, "checkboxes set", fmt.Sprintf(`document.querySelector("#lab-stack-k-proxy").checked === %v &&
				document.querySelector("#lab-stack-k-buffering").checked === %v`, proxy, buffering), 5*time.Second)
		}
		play.Check = func(t *testing.T, _ int, p labs.Preset) {
			paths := e2e.Eval[int](t, b, `[...document.querySelectorAll("#lab-stack-words-over-time .ch-data path")].filter(p => (p.getAttribute("d") || "").length > 4).length`)
			if want := map[bool]int{true: 2, false: 1}[proxy && buffering]; paths < want {
				t.Errorf("words chart draws %d lines, want %d", paths, want)
			}
			if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-stack-tables table").length`); n != 3 {
				t.Errorf("%d tables, want one per hop", n)
			}
			raw := e2e.Eval[string](t, b, `document.querySelector("#lab-stack-tables table").textContent`)
			if !strings.Contains(raw, `data: {`) || !strings.Contains(raw, `\n\n`) {
				t.Errorf("the provider's table does not show raw events with their line ends escaped: %.200q", raw)
			}
			bursts, _ := labtest.ShownStat(t, pg, "bursts")
			tokens := p.Values["answerTokens"].(float64)
			switch {
			case proxy && buffering && bursts != 1:
				t.Errorf("behind the buffering proxy the browser saw %v bursts, want 1", bursts)
			case !(proxy && buffering) && bursts != tokens:
				t.Errorf("without buffering the browser saw %v bursts, want one per token (%v)", bursts, tokens)
			}
			card := e2e.Eval[string](t, b, `(document.querySelector('#lab-stack-stats [data-stat="first_word_ms"]') || {textContent: ""}).textContent`)
			if !strings.Contains(card, "You predicted") {
				t.Errorf("first-word card = %q", card)
			}
			t.Logf("%s: first word %.0f ms, last word %.0f ms, %v bursts", p.Name,
				statMS(t, pg, "first_word_ms"), statMS(t, pg, "last_word_ms"), bursts)
		}
		labtest.PlayPresets(t, lab, pg, play, i)
	}
}
