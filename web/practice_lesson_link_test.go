package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/lessons"
	"github.com/latencylab/latencylab/lessons/practice"
)

// The lesson's drill and its practice page are one history: the lesson
// links to the practice question, which links to the lesson's follow-ups.
func TestLessonDrillLinksToPractice(t *testing.T) {
	ts, _ := newPracticeServer(t)
	c := client(t)
	checked := 0
	for _, les := range lessons.All() {
		if les.Drill.Question == "" {
			continue
		}
		checked++
		_, body := get(t, c, ts.url+"/lessons/"+les.Slug)
		link := `href="/practice/open/` + les.Slug + `"`
		if !strings.Contains(body, link) || !strings.Contains(body, "Practise this question and its follow-ups") {
			t.Errorf("lesson %s: the drill lacks the practice link %s", les.Slug, link)
			continue
		}
		resp, page := get(t, c, ts.url+"/practice/open/"+les.Slug)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("practice page of %s: %d", les.Slug, resp.StatusCode)
		}
		var want []string
		for _, f := range practice.FollowUps() {
			if f.Lesson == les.Slug {
				want = append(want, `href="/practice/open/`+f.ID+`"`)
			}
		}
		if len(want) < 2 {
			t.Errorf("lesson %s has %d follow-ups, want at least 2", les.Slug, len(want))
		}
		for _, w := range want {
			if !strings.Contains(page, w) {
				t.Errorf("practice page of %s lacks its follow-up link %s", les.Slug, w)
			}
		}
	}
	if checked < 9 {
		t.Errorf("checked %d lesson drills, want every lesson's", checked)
	}
}
