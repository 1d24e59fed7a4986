package lessons

import (
	"io/fs"
	"strings"
	"testing"
)

// knownLabs are the lab slugs the labs package serves; a lesson naming any
// other slug has a typo the web page would render as a broken embed.
var knownLabs = map[string]bool{
	"streaming": true, "prefill-decode": true, "rag": true, "batching": true, "moderation": true,
	"latency-budget": true, "cancellation": true, "levers": true, "timeouts": true,
	"stack": true,
}

func embeddedSlugs(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(content, "content/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, n := range names {
		slugs = append(slugs, strings.TrimSuffix(strings.TrimPrefix(n, "content/"), ".md"))
	}
	return slugs
}

func source(t *testing.T, slug string) string {
	t.Helper()
	b, err := fs.ReadFile(content, "content/"+slug+".md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAllLessonsParse(t *testing.T) {
	if err := Err(); err != nil {
		t.Fatalf("embedded lessons do not parse:\n%v", err)
	}
	slugs := embeddedSlugs(t)
	if len(slugs) < 10 {
		t.Errorf("want at least 10 lesson files, have %d", len(slugs))
	}
	if got := len(All()); got != len(slugs) {
		t.Errorf("All() has %d lessons, %d files embedded", got, len(slugs))
	}
}

func TestOrdersUniqueAndContiguous(t *testing.T) {
	for i, l := range All() {
		if l.Order != i+1 {
			t.Errorf("lesson %d is %q with order %d; want %d (orders must run 1..n)", i, l.Slug, l.Order, i+1)
		}
	}
}

func TestSlugsMatchFileNames(t *testing.T) {
	for _, slug := range embeddedSlugs(t) {
		t.Run(slug, func(t *testing.T) {
			l, ok := Get(slug)
			if !ok {
				t.Fatalf("Get(%q) found nothing", slug)
			}
			if l.Slug != slug {
				t.Errorf("slug %q, file %q", l.Slug, slug)
			}
		})
	}
	if _, ok := Get("no-such-lesson"); ok {
		t.Error("Get found a lesson that does not exist")
	}
}

func TestEveryLessonIsComplete(t *testing.T) {
	for _, l := range All() {
		t.Run(l.Slug, func(t *testing.T) {
			checks := []struct {
				what string
				ok   bool
			}{
				{"title", l.Title != ""},
				{"summary", l.Summary != ""},
				{"minutes", l.Minutes >= 1},
				{"html", l.HTML != ""},
				{"drill question", strings.HasSuffix(l.Drill.Question, "?")},
				{"3-6 rubric points", len(l.Drill.Rubric) >= 3 && len(l.Drill.Rubric) <= 6},
				{"model answer", strings.HasPrefix(l.Drill.ModelAnswer, "<p>")},
			}
			for _, c := range checks {
				if !c.ok {
					t.Errorf("%s missing or malformed", c.what)
				}
			}
			for _, lab := range l.Labs {
				if !knownLabs[lab] {
					t.Errorf("unknown lab %q", lab)
				}
			}
		})
	}
}

// TestLengths keeps lessons short enough to read on a phone and long enough
// to teach; the drill answer must fit a two-minute spoken reply.
func TestLengths(t *testing.T) {
	for _, l := range All() {
		t.Run(l.Slug, func(t *testing.T) {
			_, body, err := splitFrontMatter([]byte(source(t, l.Slug)))
			if err != nil {
				t.Fatal(err)
			}
			fm := mustFrontMatter(t, l.Slug)
			words, answer := countWords(body), countWords([]byte(fm.Answer))
			t.Logf("body %d words, model answer %d words, %d min", words, answer, l.Minutes)
			if words < 450 || words > 1000 {
				t.Errorf("body has %d words; want about 500-900", words)
			}
			if answer < 120 || answer > 250 {
				t.Errorf("model answer has %d words; want 120-250", answer)
			}
		})
	}
}

func mustFrontMatter(t *testing.T, slug string) frontMatter {
	t.Helper()
	header, _, err := splitFrontMatter([]byte(source(t, slug)))
	if err != nil {
		t.Fatal(err)
	}
	fm, err := parseFrontMatter(header)
	if err != nil {
		t.Fatal(err)
	}
	return fm
}

func TestNeighbours(t *testing.T) {
	all := All()
	if len(all) < 3 {
		t.Fatalf("need at least 3 lessons, have %d", len(all))
	}
	first, second, last := all[0].Slug, all[1].Slug, all[len(all)-1].Slug
	slug := func(l *Lesson) string {
		if l == nil {
			return ""
		}
		return l.Slug
	}
	tests := []struct {
		slug, prev, next string
	}{
		{first, "", second},
		{second, first, all[2].Slug},
		{last, all[len(all)-2].Slug, ""},
		{"no-such-lesson", "", ""},
	}
	for _, tc := range tests {
		prev, next := Neighbours(tc.slug)
		if slug(prev) != tc.prev || slug(next) != tc.next {
			t.Errorf("Neighbours(%q) = %q, %q; want %q, %q", tc.slug, slug(prev), slug(next), tc.prev, tc.next)
		}
	}
}

func TestRenderedHTML(t *testing.T) {
	for _, l := range All() {
		t.Run(l.Slug, func(t *testing.T) {
			src := source(t, l.Slug)
			_, body, _ := splitFrontMatter([]byte(src))
			if strings.Contains(string(body), "|---") && !strings.Contains(l.HTML, "<table>") {
				t.Error("Markdown has a table but the HTML has no <table>")
			}
			if strings.Contains(l.HTML, "style=") {
				t.Error("inline style attribute would be blocked by the CSP")
			}
			if !strings.Contains(l.HTML, `<h2 id="`) {
				t.Error("no h2 with an auto-generated id")
			}
			for _, leak := range []string{"<hr>", "order: ", "rubric:", "answer: |", "labs: [", "question: "} {
				if strings.Contains(l.HTML, leak) || strings.Contains(l.Drill.ModelAnswer, leak) {
					t.Errorf("rendered HTML contains front matter fragment %q", leak)
				}
			}
			if strings.Contains(l.HTML, l.Drill.Question) {
				t.Error("drill question leaked into the body")
			}
			// A code block scrolls sideways on a phone, so it must take
			// the keyboard's focus to be read.
			if n, focusable := strings.Count(l.HTML, "<pre"), strings.Count(l.HTML, `<pre tabindex="0">`); n != focusable {
				t.Errorf("%d of %d code blocks cannot take focus", n-focusable, n)
			}
		})
	}
}

// Code blocks keep goldmark's escaping and language class with the focusable
// <pre>.
func TestCodeBlocksRender(t *testing.T) {
	md := newMarkdown()
	for _, tc := range []struct{ name, src, want string }{
		{"fenced with a language", "```go\nif a < b && c {}\n```\n", `<pre tabindex="0"><code class="language-go">if a &lt; b &amp;&amp; c {}` + "\n</code></pre>\n"},
		{"fenced", "```\n<script>\n```\n", `<pre tabindex="0"><code>&lt;script&gt;` + "\n</code></pre>\n"},
		{"indented", "    x := 1\n", `<pre tabindex="0"><code>x := 1` + "\n</code></pre>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := md.Convert([]byte(tc.src), &b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
		})
	}
}

func TestCallersCannotChangeTheCatalogue(t *testing.T) {
	all := All()
	all[0].Title = "changed"
	all[0].Drill.Rubric[0] = "changed"
	l, _ := Get(all[0].Slug)
	if l.Title == "changed" || l.Drill.Rubric[0] == "changed" {
		t.Error("mutating All()'s result changed the catalogue")
	}
}
