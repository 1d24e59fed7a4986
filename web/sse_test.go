package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// The tests in this file and injection_test.go read streams the way a
// browser does: lines end at CR, LF or CRLF (the SSE specification and the
// vendored beta.11 client's byte parser agree), an empty line dispatches
// the event, and a data line's first word is the Datastar key.

// injectionPayload is the attack from issue 9: bare CRs that, split as a
// browser splits them, end the current event and start a merge-signals
// event whose signals the client evaluates as script.
const injectionPayload = "\r\revent: datastar-merge-signals\rdata: signals {x: (document.title='PWN')}"

// htmlSafePayload is the same attack with no character HTML escaping
// changes (templ turns ' into &#39;, which would make the injected
// expression a syntax error instead of a title change), so in a browser it
// runs when the adapter lets it through. The last CR puts the rest of the
// fragment on a line of its own, which the client ignores.
const htmlSafePayload = "\r\revent: datastar-merge-signals\rdata: signals {x: (document.title=`PWN`)}\r"

// lineBreakVariants is every character sequence that ends, or might be
// taken to end, a line somewhere between the server and the page, each
// inside text that also carries the injection's words.
var lineBreakVariants = map[string]string{
	"clean":              "plain words only",
	"cr":                 "a\rb\r\revent: datastar-merge-signals\rdata: signals {x: 1}",
	"crlf":               "a\r\nb\r\n\r\nevent: datastar-merge-signals\r\ndata: signals {x: 1}",
	"lf":                 "a\nb\n\nevent: datastar-merge-signals\ndata: signals {x: 1}",
	"u2028":              "a\u2028b\u2028\u2028event: datastar-merge-signals\u2028data: signals {x: 1}",
	"u2029":              "a\u2029b\u2029\u2029event: datastar-merge-signals\u2029data: signals {x: 1}",
	"nul":                "a\x00b\x00\x00event: datastar-merge-signals\x00data: signals {x: 1}",
	"payload":            injectionPayload,
	"payload, html-safe": htmlSafePayload,
}

// wireEvent is one dispatched event as a browser sees it.
type wireEvent struct {
	Type string
	Data map[string][]string // Datastar key → its lines, in order
}

// value is a key's lines joined as the client joins them.
func (e wireEvent) value(key string) string { return strings.Join(e.Data[key], "\n") }

// splitBrowserLines splits at CR, LF and CRLF.
func splitBrowserLines(body string) []string {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	return strings.Split(strings.ReplaceAll(body, "\r", "\n"), "\n")
}

// allowedDataKeys are the data-line keys the adapter writes.
var allowedDataKeys = map[string]bool{"selector": true, "mergeMode": true, "fragments": true, "signals": true}

// parseWire parses an SSE body as the browser would and checks its framing:
// every non-empty line is "event: <datastar event>" or "data: <known key>
// ...", each event has one event line, and every signals value is a JSON
// object (the injection's signals are JavaScript, not JSON). It returns the
// events that carry anything.
func parseWire(t testing.TB, body string) []wireEvent {
	t.Helper()
	var events []wireEvent
	cur, eventLines := wireEvent{Data: map[string][]string{}}, 0
	for i, line := range splitBrowserLines(body) {
		switch {
		case line == "":
			if cur.Type != "" || len(cur.Data) > 0 {
				if eventLines != 1 {
					t.Errorf("event %d has %d event lines", len(events), eventLines)
				}
				events = append(events, cur)
			}
			cur, eventLines = wireEvent{Data: map[string][]string{}}, 0
		case line == "event: datastar-merge-fragments" || line == "event: datastar-merge-signals":
			cur.Type = strings.TrimPrefix(line, "event: ")
			eventLines++
		case strings.HasPrefix(line, "data: "):
			key, val, _ := strings.Cut(strings.TrimPrefix(line, "data: "), " ")
			if !allowedDataKeys[key] {
				t.Errorf("line %d is a data line with key %q: %q", i, key, line)
			}
			cur.Data[key] = append(cur.Data[key], val)
		default:
			t.Errorf("line %d is neither an event line nor a data line: %q", i, line)
		}
	}
	if cur.Type != "" || len(cur.Data) > 0 {
		t.Errorf("the stream ends inside an event")
	}
	for i, e := range events {
		if e.Type == "datastar-merge-signals" {
			var obj map[string]any
			if err := json.Unmarshal([]byte(e.value("signals")), &obj); err != nil {
				t.Errorf("event %d: signals %q are not a JSON object", i, e.value("signals"))
			}
		}
		if e.Type == "datastar-merge-fragments" && len(e.Data["selector"]) != 1 {
			t.Errorf("event %d has %d selector lines", i, len(e.Data["selector"]))
		}
	}
	return events
}

// recordStream opens a stream on a recorder, runs send on it and returns
// the body.
func recordStream(t testing.TB, send func(*stream) error) string {
	t.Helper()
	rec := httptest.NewRecorder()
	c := echo.New().NewContext(httptest.NewRequest(http.MethodPost, "/", nil), rec)
	if err := send(openStream(c, http.StatusOK)); err != nil {
		t.Fatalf("send: %v", err)
	}
	return rec.Body.String()
}

func TestSSEAdapterKeepsEveryVariantInsideItsEvent(t *testing.T) {
	for name, text := range lineBreakVariants {
		t.Run(name, func(t *testing.T) {
			sigs, _ := json.Marshal(map[string]string{"chatInput": text})
			html := "<div id=\"x\">\n" + text + "\n</div>"
			body := recordStream(t, func(st *stream) error {
				for _, err := range []error{
					st.mergeHTML("#x", html),
					st.mergeHTML("#x"+text, html), // a selector goes through the same guard
					st.mergeSignals(string(sigs)),
					st.mergeSignals("{\"a\":\r1,\r\n\"b\":\n2}"), // raw line ends in JSON whitespace
				} {
					if err != nil {
						return err
					}
				}
				return nil
			})
			events := parseWire(t, body)
			if len(events) != 4 {
				t.Fatalf("%d events on the wire, want 4:\n%q", len(events), body)
			}
			wantHTML := normalizeLineEnds(html)
			if got := events[0].value("fragments"); got != wantHTML {
				t.Errorf("fragments arrive as %q, want %q", got, wantHTML)
			}
			if got, want := events[1].value("selector"), strings.ReplaceAll(normalizeLineEnds("#x"+text), "\n", " "); got != want {
				t.Errorf("selector arrives as %q, want %q", got, want)
			}
			var got map[string]string
			if err := json.Unmarshal([]byte(events[2].value("signals")), &got); err != nil || got["chatInput"] != text {
				t.Errorf("signals arrive as %q (%v), want the input back", events[2].value("signals"), err)
			}
			if strings.ContainsAny(body, "\r\x00") {
				t.Errorf("a CR or NUL reached the wire: %q", body)
			}
		})
	}
}

func TestNormalizeLineEnds(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"lf kept":          {"a\nb", "a\nb"},
		"crlf":             {"a\r\nb", "a\nb"},
		"bare cr":          {"a\rb", "a\nb"},
		"cr cr lf":         {"\r\r\n", "\n\n"},
		"lf cr":            {"\n\r", "\n\n"},
		"nul":              {"a\x00b", "a\uFFFDb"},
		"invalid utf-8":    {"a\xffb", "a\uFFFDb"},
		"u2028 u2029 kept": {"a\u2028b\u2029c", "a\u2028b\u2029c"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := normalizeLineEnds(tc.in); got != tc.want {
				t.Errorf("normalizeLineEnds(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// BenchmarkMergeHTML measures the adapter on a chart-sized fragment, the
// most frequent patch (up to 20 a second per run). The line-end guard
// copies the text only when it holds a CR or NUL (compare the two).
func BenchmarkMergeHTML(b *testing.B) {
	html := strings.Repeat(`<rect x="10" y="20" width="30" height="40" class="bar"></rect>`+"\n", 500)
	for name, text := range map[string]string{"clean": html, "with CR": html + "\r"} {
		b.Run(name, func(b *testing.B) {
			rec := httptest.NewRecorder()
			c := echo.New().NewContext(httptest.NewRequest(http.MethodPost, "/", nil), rec)
			st := openStream(c, http.StatusOK)
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				rec.Body.Reset()
				if err := st.mergeHTML("#chart", text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
