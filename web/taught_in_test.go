package web

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/lessons"
)

// A lab is listed under every lesson that embeds it, its own lesson first
// and the rest in course order, on /labs, the home page and the lab's own
// page; a lab no lesson embeds names none.
func TestTaughtInListsEveryLesson(t *testing.T) {
	lesson := func(slug, title string, order int, labs ...string) lessons.Lesson {
		return lessons.Lesson{Slug: slug, Title: title, Order: order, Summary: title + ".", Minutes: 5, HTML: "<p>x</p>", Labs: labs}
	}
	for _, c := range []struct {
		name    string
		lessons []lessons.Lesson
		want    []string // titles, in order
	}{
		{"its own lesson only", []lessons.Lesson{lesson("first-token", "Own lesson", 1, "ticker"), lesson("other", "Other", 2)}, []string{"Own lesson"}},
		{"own first, then course order", []lessons.Lesson{
			lesson("early", "Early reuse", 1, "ticker"),
			lesson("first-token", "Own lesson", 2, "ticker"),
			lesson("late", "Late reuse", 3, "rag", "ticker"),
			lesson("unrelated", "Unrelated", 4, "rag"),
		}, []string{"Own lesson", "Early reuse", "Late reuse"}},
		{"own lesson missing", []lessons.Lesson{lesson("late", "Late reuse", 1, "ticker")}, []string{"Late reuse"}},
		{"taught nowhere", []lessons.Lesson{lesson("other", "Other", 1)}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newTestServer(t, func(cfg *Config) { cfg.Lessons = fakeLessons{ls: c.lessons} })
			var got []string
			for _, l := range s.taughtIn("ticker", "first-token") {
				got = append(got, l.Title)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("taughtIn = %q, want %q", got, c.want)
			}
			ts := startHTTP(t, s)
			for _, path := range []string{"/labs", "/", "/labs/ticker"} {
				_, body := get(t, client(t), ts.URL+path)
				m := regexp.MustCompile(`(?s)<p class="muted small taught-in">(.*?)</p>`).FindStringSubmatch(body)
				if len(c.want) == 0 {
					if m != nil {
						t.Errorf("%s: a lab taught nowhere says %q", path, m[0])
					}
					continue
				}
				if m == nil {
					t.Errorf("%s: no Taught in line", path)
					continue
				}
				text := strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(m[1], ""))), " ")
				if want := "Taught in " + joinTitles(c.want); text != want {
					t.Errorf("%s: %q, want %q", path, text, want)
				}
				if n := strings.Count(m[1], `<a href="/lessons/`); n != len(c.want) {
					t.Errorf("%s: %d lesson links, want %d", path, n, len(c.want))
				}
			}
		})
	}
}

// joinTitles is how the page joins a list: "A", "A and B", "A, B and C".
func joinTitles(ts []string) string {
	if len(ts) == 1 {
		return ts[0]
	}
	return strings.Join(ts[:len(ts)-1], ", ") + " and " + ts[len(ts)-1]
}
