package web

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// section is the part of a page from marker to the end of its element's
// line block, enough to quote in a failure.
func section(body, marker string) string {
	i := strings.Index(body, marker)
	if i < 0 {
		return ""
	}
	end := min(len(body), i+2000)
	if j := strings.Index(body[i:], "</table>"); j > 0 && i+j < end {
		end = i + j
	}
	return body[i:end]
}

func TestMockInterview(t *testing.T) {
	ts, clk := newPracticeServer(t)
	c := client(t)
	get(t, c, ts.url+"/")
	for _, bad := range []string{"0", "121", "soon"} {
		resp := postForm(t, c, ts.url+"/practice/mock", url.Values{"minutes": {bad}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("minutes %q: %d, want 422", bad, resp.StatusCode)
		}
	}
	resp := postForm(t, c, ts.url+"/practice/mock", url.Values{"minutes": {"2"}})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/practice/mock/") {
		t.Fatalf("start: %d to %q, want 303 to the mock", resp.StatusCode, resp.Header.Get("Location"))
	}
	mock := ts.url + resp.Header.Get("Location")
	_, body := get(t, c, mock)
	if n := strings.Count(body, `<fieldset class="mock-item">`); n != 8 {
		t.Fatalf("mock has %d questions, want 8", n)
	}
	if !strings.Contains(body, "2:00") || strings.Contains(body, "model answer</a>") {
		t.Error("the countdown is missing or an answer is shown before the end")
	}
	// The pause stops the clock; a second pause is refused.
	postForm(t, c, mock+"/pause", nil)
	clk.advance(10 * time.Minute)
	if _, body := get(t, c, mock); !strings.Contains(body, "Paused with 2:00 left") {
		t.Error("pause did not stop the clock")
	}
	postForm(t, c, mock+"/resume", nil)
	if resp := postForm(t, c, mock+"/pause", nil); resp.StatusCode != http.StatusConflict {
		t.Errorf("second pause: %d, want 409", resp.StatusCode)
	}
	// Answers: every open one, estimates 5-8; an unreadable estimate comes back with the drafts.
	form := url.Values{}
	for i := 1; i <= 4; i++ {
		form.Set(fmt.Sprint("a", i), fmt.Sprintf("Open answer number %d about prefill, decode and batching.", i))
	}
	form.Set("a5", "fast")
	resp2, err := c.PostForm(mock+"/submit", form)
	if err != nil {
		t.Fatal(err)
	}
	if b := readAll(resp2); resp2.StatusCode != 422 || !strings.Contains(b, "question 5") || !strings.Contains(b, "Open answer number 3") {
		t.Fatalf("unreadable estimate: %d; want 422 naming question 5 with the drafts kept", resp2.StatusCode)
	}
	// Answer each estimate with its own unit's example (the drills are drawn at random).
	examples := regexp.MustCompile(`placeholder="for example ([^"]*?)(?: or [^"]*)?"`).FindAllStringSubmatch(body, -1)
	if len(examples) != 4 {
		t.Fatalf("%d estimate boxes, want 4", len(examples))
	}
	for i, m := range examples {
		form.Set(fmt.Sprint("a", 5+i), html.UnescapeString(m[1]))
	}
	clk.advance(3 * time.Minute) // past the two minutes: late, not lost
	if resp := postForm(t, c, mock+"/submit", form); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("submit: %d", resp.StatusCode)
	}
	_, body = get(t, c, mock)
	if !strings.Contains(body, `id="mock-late"`) || !strings.Contains(body, `id="mock-areas"`) {
		t.Fatal("scorecard missing or not marked late")
	}
	if n := strings.Count(body, "not ticked yet"); n != 4 {
		t.Errorf("%d open answers await ticks, want 4", n)
	}
	// Until the four open answers are ticked the figure is partial, and no
	// area holding one of them shows a percentage.
	if !strings.Contains(body, "So far: <strong>") || !strings.Contains(body, "on the 4 of 8 questions marked; tick the rubric on 4 open answers to finish.") {
		t.Errorf("the scorecard does not say its figure is partial:\n%s", section(body, `id="mock-overall"`))
	}
	areas := section(body, `id="mock-areas"`)
	for _, row := range regexp.MustCompile(`(?s)<tr>.*?</tr>`).FindAllString(areas, -1) {
		if strings.Contains(row, "%") && strings.Contains(row, "pending") {
			t.Errorf("an area shows a figure while it waits for ticks: %s", row)
		}
	}
	if !strings.Contains(areas, "pending: ") {
		t.Errorf("no area is pending although every open answer is unticked:\n%s", areas)
	}
	opens := regexp.MustCompile(`href="(/practice/open/[^"?]+)\?attempt=(\d+)#compare"`).FindAllStringSubmatch(body, -1)
	if len(opens) != 4 {
		t.Fatalf("%d links to tick open answers, want 4", len(opens))
	}
	for _, o := range opens {
		if resp := postForm(t, c, ts.url+o[1]+"/score", url.Values{"attempt": {o[2]}, "tick": {"0"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("tick %s: %d", o[1], resp.StatusCode)
		}
	}
	_, body = get(t, c, mock)
	if !strings.Contains(body, "Overall: <strong>") || strings.Contains(body, `id="mock-overall-note"`) || strings.Contains(section(body, `id="mock-areas"`), "pending") {
		t.Errorf("after ticking every open answer the scorecard is not final:\n%s", section(body, `id="mock-overall"`))
	}
	// The export keeps each estimate's numbers, so it can be revised from.
	_, md := get(t, c, ts.url+"/practice/export.md")
	if n, givens := strings.Count(md, "## Estimate: "), strings.Count(md, "\nGiven: "); n != 4 || givens != 4 {
		t.Errorf("export has %d estimates and %d givens lines, want 4 of each:\n%s", n, givens, md)
	}
	// A second mock shows the chart over time.
	resp = postForm(t, c, ts.url+"/practice/mock", nil)
	second := ts.url + resp.Header.Get("Location")
	postForm(t, c, second+"/submit", url.Values{})
	_, body = get(t, c, second)
	if bars := regexp.MustCompile(`<rect `).FindAllString(body, -1); len(bars) != 2 {
		t.Errorf("chart has %d bars, want 2", len(bars))
	}
	if resp, _ := get(t, client(t), second); resp.StatusCode != 404 {
		t.Errorf("another learner sees the mock: %d", resp.StatusCode)
	}
}
