package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Focused describes the element that has keyboard focus.
type Focused struct {
	ID   string `json:"id"`
	Tag  string `json:"tag"`  // lower case, e.g. "button"
	Text string `json:"text"` // its visible text, trimmed, at most 60 characters
	// Ring is whether a focus indicator shows: an outline at least 2 px
	// wide that is not transparent, on the element or on a box up to two
	// levels round it (a text box drawn borderless inside a composer that
	// takes the ring).
	Ring bool `json:"ring"`
}

// String names the element for a failure message.
func (f Focused) String() string {
	if f.ID != "" {
		return fmt.Sprintf("<%s id=%q>", f.Tag, f.ID)
	}
	return fmt.Sprintf("<%s> %q", f.Tag, f.Text)
}

// focusedJS reads document.activeElement as a Focused.
const focusedJS = `(() => { const el = document.activeElement;
	if (!el || el === document.body) return {id: "", tag: "body", text: "", ring: false};
	const drawn = n => { const cs = getComputedStyle(n);
		return cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 2 && cs.outlineColor !== "rgba(0, 0, 0, 0)" };
	let ring = false;
	for (let n = el, up = 0; n && up <= 2 && !ring; n = n.parentElement, up++) ring = drawn(n);
	return {id: el.id, tag: el.tagName.toLowerCase(), text: (el.innerText || el.value || "").trim().slice(0, 60), ring};
})()`

// FocusedElement reports the element with keyboard focus.
func FocusedElement(t testing.TB, ctx context.Context) Focused {
	t.Helper()
	return Eval[Focused](t, ctx, focusedJS)
}

// Press sends keys as real key events (kb.Enter, " ", kb.ArrowRight,
// digits), the way a keyboard would.
func Press(t testing.TB, ctx context.Context, keys string) {
	t.Helper()
	Do(t, ctx, fmt.Sprintf("press %q", keys), 5*time.Second, chromedp.KeyEvent(keys))
}

// TabUntil presses Tab until the focused element matches the JavaScript
// predicate match (given the element as el), at most max times, and
// returns it. It fails t if focus never gets there or the element shows
// no focus ring.
func TabUntil(t testing.TB, ctx context.Context, what, match string, max int) Focused {
	t.Helper()
	test := fmt.Sprintf(`(el => !!el && (%s))(document.activeElement)`, match)
	for i := 0; i < max; i++ {
		Press(t, ctx, kb.Tab)
		if Eval[bool](t, ctx, test) {
			f := FocusedElement(t, ctx)
			if !f.Ring {
				t.Errorf("%s has keyboard focus but shows no focus ring", f)
			}
			return f
		}
	}
	t.Fatalf("Tab did not reach %s in %d presses (focus is on %s)", what, max, FocusedElement(t, ctx))
	return Focused{}
}

// TabWalk presses Tab through the whole page, from the top until focus
// leaves it or comes round again, at most max times, and returns every
// element it stopped on, in order.
func TabWalk(t testing.TB, ctx context.Context, max int) []Focused {
	t.Helper()
	// Focusing the body (briefly focusable) moves the point Tab starts from
	// to the top; blur alone leaves it where focus was.
	Eval[bool](t, ctx, `(() => { const b = document.body; b.setAttribute("tabindex", "-1"); b.focus(); b.removeAttribute("tabindex");
		window.scrollTo(0, 0); return true })()`)
	var stops []Focused
	seen := map[string]bool{}
	for i := 0; i < max; i++ {
		Press(t, ctx, kb.Tab)
		f := FocusedElement(t, ctx)
		key := f.String()
		if f.Tag == "body" || (f.ID != "" && seen[key]) {
			return stops
		}
		seen[key] = true
		stops = append(stops, f)
	}
	return stops
}
