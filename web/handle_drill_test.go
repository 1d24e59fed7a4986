package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestLessonDrillNeedsARealAttempt: the lesson's drill and the practice
// page ask the same question, so they share one rule: the model answer
// shows only after MinWords words, and a shorter answer comes back in its
// box with the same message on both.
func TestLessonDrillNeedsARealAttempt(t *testing.T) {
	const slug = "time-to-first-token"
	long := strings.Repeat("Prefill reads the whole prompt before the first token, so queueing and prompt length set it. ", 3)
	tests := []struct {
		name, answer string
		status       int
		message      string // the refusal, "" when accepted
	}{
		{"blank", "   ", http.StatusUnprocessableEntity, "Your answer has 0 words; write at least 40 more"},
		{"one word", "short", http.StatusUnprocessableEntity, "Your answer has 1 word; write at least 39 more"},
		{"two words", "short answer", http.StatusUnprocessableEntity, "Your answer has 2 words; write at least 38 more"},
		{"a real attempt", long, http.StatusSeeOther, ""},
	}
	errorText := regexp.MustCompile(`role="alert">([^<]*)<`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, _ := newPracticeServer(t)
			c := client(t)
			get(t, c, ts.url+"/")
			resp, err := c.PostForm(ts.url+"/lessons/"+slug+"/drill", url.Values{"answer": {tt.answer}})
			if err != nil {
				t.Fatal(err)
			}
			body := readAll(resp)
			if resp.StatusCode != tt.status {
				t.Fatalf("drill POST: %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.message == "" {
				if loc := resp.Header.Get("Location"); loc != "/lessons/"+slug+"#drill" {
					t.Errorf("accepted answer redirects to %q", loc)
				}
				if _, page := get(t, c, ts.url+"/lessons/"+slug); !strings.Contains(page, `class="drill-reveal"`) {
					t.Error("the model answer is not shown after a real attempt")
				}
				return
			}
			if strings.Contains(body, `class="drill-reveal"`) || !strings.Contains(body, `id="drill-error"`) ||
				!strings.Contains(body, tt.message) || !strings.Contains(body, ">"+htmlEscape(tt.answer)+"</textarea>") {
				t.Errorf("short answer: want the lesson page with %q, the draft kept and no model answer", tt.message)
			}
			if _, page := get(t, c, ts.url+"/lessons/"+slug); strings.Contains(page, `class="drill-reveal"`) {
				t.Error("a refused answer was saved: the model answer shows")
			}
			open, err := c.PostForm(ts.url+"/practice/open/"+slug, url.Values{"answer": {tt.answer}})
			if err != nil {
				t.Fatal(err)
			}
			lessonMsg, practiceMsg := errorText.FindStringSubmatch(body), errorText.FindStringSubmatch(readAll(open))
			if lessonMsg == nil || practiceMsg == nil || lessonMsg[1] != practiceMsg[1] {
				t.Errorf("the lesson says %q and the practice page %q for the same answer", lessonMsg, practiceMsg)
			}
		})
	}
}
