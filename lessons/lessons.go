// Package lessons holds the Latency Lab lessons: Markdown files embedded in
// the binary, each with a small front matter block (title, order, summary,
// labs to embed, an interview drill), parsed once and rendered to HTML with
// goldmark.
package lessons

import (
	"embed"
	"sync"
)

// Drill is the interview practice attached to a lesson.
type Drill struct {
	Question    string   // an interview-style question
	Rubric      []string // what a strong answer covers, one point per entry
	ModelAnswer string   // HTML rendered from trusted, embedded Markdown
}

// Lesson is one parsed and rendered lesson.
type Lesson struct {
	Slug    string   // file name without .md, e.g. "time-to-first-token"
	Title   string   // page title
	Order   int      // position in the course, 1-based and contiguous
	Summary string   // one-sentence description for the index
	Minutes int      // reading time estimated from the body's word count
	Labs    []string // lab slugs to embed beside the lesson; may be empty
	HTML    string   // body rendered with goldmark (GFM tables, heading ids)
	Drill   Drill    // interview question, rubric and model answer
}

//go:embed content/*.md
var content embed.FS

// catalogue is parsed on first use; the embedded files never change at run
// time, so one parse serves the whole process.
var catalogue = sync.OnceValues(func() ([]Lesson, error) {
	return parseFS(content, "content")
})

// All returns every lesson that parsed, sorted by Order. The slice is a copy,
// so callers may not change the shared catalogue through it.
func All() []Lesson {
	ls, _ := catalogue()
	return clone(ls)
}

// Err reports why any embedded lesson failed to parse, or nil. All still
// returns the lessons that did parse, so one bad file does not empty the site;
// tests assert Err is nil.
func Err() error {
	_, err := catalogue()
	return err
}

// Get returns the lesson with the given slug.
func Get(slug string) (Lesson, bool) {
	ls, _ := catalogue()
	for _, l := range ls {
		if l.Slug == slug {
			return cloneLesson(l), true
		}
	}
	return Lesson{}, false
}

// Neighbours returns the lessons before and after slug in course order; either
// is nil at the ends of the course, and both are nil for an unknown slug.
func Neighbours(slug string) (prev, next *Lesson) {
	ls, _ := catalogue()
	for i, l := range ls {
		if l.Slug != slug {
			continue
		}
		if i > 0 {
			p := cloneLesson(ls[i-1])
			prev = &p
		}
		if i+1 < len(ls) {
			n := cloneLesson(ls[i+1])
			next = &n
		}
		return prev, next
	}
	return nil, nil
}

func clone(ls []Lesson) []Lesson {
	out := make([]Lesson, len(ls))
	for i, l := range ls {
		out[i] = cloneLesson(l)
	}
	return out
}

// cloneLesson copies the slices too, so a caller appending to Labs or Rubric
// cannot reach the cached catalogue.
func cloneLesson(l Lesson) Lesson {
	l.Labs = append([]string(nil), l.Labs...)
	l.Drill.Rubric = append([]string(nil), l.Drill.Rubric...)
	return l
}
