package web

import "testing"

func TestCleanChatInput(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"plain":         {"How long do refunds take?", "How long do refunds take?"},
		"lf and tab":    {"a\n\tb", "a\n\tb"},
		"crlf":          {"a\r\nb", "a\nb"},
		"bare cr":       {"a\rb", "a\nb"},
		"cr cr lf":      {"a\r\r\nb", "a\n\nb"},
		"nul":           {"a\x00b", "ab"},
		"other c0, del": {"a\x01\x1b[31m\x7fb", "a[31mb"},
		"sse payload":   {injectionPayload, "\n\nevent: datastar-merge-signals\ndata: signals {x: (document.title='PWN')}"},
		"unicode kept":  {"naïve \u2028 ✓", "naïve \u2028 ✓"},
		"invalid utf-8": {"a\xffb\r", "a\xffb\r"}, // left for the handler to refuse
	} {
		t.Run(name, func(t *testing.T) {
			if got := cleanChatInput(tc.in); got != tc.want {
				t.Errorf("cleanChatInput(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestChatQuestionIsSavedWithoutCR: a question with CRs is answered, and
// what SQLite keeps (and every later replay shows) has LF in their place.
func TestChatQuestionIsSavedWithoutCR(t *testing.T) {
	s, ts := fastChatServer(t, scriptedProvider{deltas: []string{"Refunds take ", "five days."}})
	c := client(t)
	conv := newConversation(t, c, ts.URL)
	if status, body := chatSend(t, c, ts.URL, conv, "How long\r\ndo refunds\rtake?"+injectionPayload); status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	waitForAnswer(t, s.store, learnerOf(t, c, ts.URL), conv)
	msgs, err := s.store.ListMessages(t.Context(), learnerOf(t, c, ts.URL), conv)
	if err != nil {
		t.Fatal(err)
	}
	if want := "How long\ndo refunds\ntake?\n\nevent: datastar-merge-signals\ndata: signals {x: (document.title='PWN')}"; msgs[0].Content != want {
		t.Errorf("saved question %q, want %q", msgs[0].Content, want)
	}
}
