package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserInjectionStaysText runs issue 9's attack in headless Chromium
// against the real Datastar client: a model answer and a stored
// conversation carry bare CRs followed by a merge-signals event that would
// set document.title. The page must show the words as text and the title
// must stay the app's own.
func TestBrowserInjectionStaysText(t *testing.T) {
	e2e.Require(t)
	s, _ := fastChatServer(t, scriptedProvider{deltas: pieces("Refunds take five days."+htmlSafePayload, 3)})
	base, _ := serveReal(t, s)
	ctx := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, ctx)
	defer console.Clean(t)

	e2e.Do(t, ctx, "open the chat", 15*time.Second, chromedp.Navigate(base+"/chat"), chromedp.WaitVisible(chromedp.ID("chat-input")))
	title := e2e.Eval[string](t, ctx, `document.title`)
	e2e.Do(t, ctx, "ask", 5*time.Second, e2e.SetInput("chat-input", "How long do refunds take?"), chromedp.Click(chromedp.ID("chat-send")))
	e2e.WaitFor(t, ctx, "answer saved and shown", `!!document.querySelector('#chat-log li.msg-assistant[data-status="complete"]')`, 20*time.Second)
	if got := e2e.Eval[string](t, ctx, `document.title`); got != title {
		t.Errorf("after the live answer the title is %q, want %q", got, title)
	}
	if text := e2e.Eval[string](t, ctx, `document.querySelector("#chat-log .msg-assistant .msg-text").textContent`); !containsAll(text, "Refunds take five days.", injectedWords, "document.title=`PWN`") {
		t.Errorf("the answer does not show the payload as text: %q", text)
	}

	// The same text, stored, replayed into the page by the next answer.
	conv := e2e.Eval[string](t, ctx, `document.querySelector("#chat-convs a.current").getAttribute("href").replace("/chat/", "")`)
	for _, role := range []string{"user", "assistant"} {
		if err := s.store.SaveMessage(context.Background(), pipeline.SavedMessage{ConversationID: conv, Role: role, Content: "stored" + htmlSafePayload}); err != nil {
			t.Fatal(err)
		}
	}
	e2e.Do(t, ctx, "ask again", 5*time.Second, e2e.SetInput("chat-input", "And exchanges?"), chromedp.Click(chromedp.ID("chat-send")))
	e2e.WaitFor(t, ctx, "replay shown", `document.querySelectorAll('#chat-log li.msg-assistant[data-status="complete"]').length >= 3`, 20*time.Second)
	if got := e2e.Eval[string](t, ctx, `document.title`); got != title {
		t.Errorf("after the replay the title is %q, want %q", got, title)
	}
}

// containsAll reports whether s holds every part.
func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
