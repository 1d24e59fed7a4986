package lessons

import (
	"strings"
	"testing"
	"testing/fstest"
)

const goodLesson = `---
title: A title
order: 1
summary: "A summary: with a colon"
labs: [streaming, prefill-decode]
question: Why?
rubric:
  - one
  - two
answer: |
  First paragraph.

  Second paragraph with **bold**.
---
## Heading

| a | b |
|---|---|
| 1 | 2 |
`

func TestParseGoodLesson(t *testing.T) {
	l, err := parseLesson(newMarkdown(), "a-title", []byte(goodLesson))
	if err != nil {
		t.Fatal(err)
	}
	if l.Title != "A title" || l.Order != 1 || l.Summary != "A summary: with a colon" {
		t.Errorf("scalars: %+v", l)
	}
	if strings.Join(l.Labs, ",") != "streaming,prefill-decode" {
		t.Errorf("labs = %q", l.Labs)
	}
	if strings.Join(l.Drill.Rubric, "|") != "one|two" {
		t.Errorf("rubric = %q", l.Drill.Rubric)
	}
	if l.Drill.ModelAnswer != "<p>First paragraph.</p>\n<p>Second paragraph with <strong>bold</strong>.</p>\n" {
		t.Errorf("answer = %q", l.Drill.ModelAnswer)
	}
	if !strings.Contains(l.HTML, `<h2 id="heading">Heading</h2>`) || !strings.Contains(l.HTML, "<table>") {
		t.Errorf("html = %q", l.HTML)
	}
}

// TestMalformedLessons: every defect is an error naming what is wrong, never
// a panic or a silently half-filled lesson.
func TestMalformedLessons(t *testing.T) {
	replace := func(old, new string) string { return strings.Replace(goodLesson, old, new, 1) }
	tests := []struct {
		name, src, slug, want string
	}{
		{"empty file", "", "x", "must start"},
		{"no opening line", strings.TrimPrefix(goodLesson, "---\n"), "x", "must start"},
		{"not closed", strings.Replace(goodLesson, "---\n##", "##", 1), "x", "not closed"},
		{"unknown key", replace("order: 1", "order: 1\ncolour: red"), "x", `unknown key "colour"`},
		{"duplicate key", replace("order: 1", "order: 1\norder: 2"), "x", "duplicate key"},
		{"order not a number", replace("order: 1", "order: first"), "x", "order must be"},
		{"order zero", replace("order: 1", "order: 0"), "x", "order must be"},
		{"no colon", replace("order: 1", "order 1"), "x", "key: value"},
		{"labs not a list", replace("labs: [streaming, prefill-decode]", "labs: streaming"), "x", "want [slug"},
		{"bad lab slug", replace("prefill-decode", "Prefill Decode"), "x", "bad lab slug"},
		{"bad quote", replace(`"A summary: with a colon"`, `"unclosed`), "x", "bad quoted"},
		{"empty title", replace("title: A title", "title:"), "x", "empty value"},
		{"rubric inline", replace("rubric:", "rubric: one"), "x", "own"},
		{"answer not a block", replace("answer: |", "answer: inline"), "x", `"|" block`},
		{"stray indent", replace("rubric:", "rubric:\n    - deeper"), "x", "indented"},
		{"missing fields", "---\ntitle: t\norder: 1\n---\nbody\n", "x", "missing summary, question, rubric, answer"},
		{"empty body", goodLesson[:strings.Index(goodLesson, "## Heading")], "x", "empty body"},
		{"bad file name", goodLesson, "Bad Name", "not a valid slug"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseLesson(newMarkdown(), tc.slug, []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v; want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestParseFSJoinsErrorsAndKeepsGoodFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"d/good.md":   {Data: []byte(goodLesson)},
		"d/same.md":   {Data: []byte(goodLesson)}, // order 1 again
		"d/broken.md": {Data: []byte("no front matter")},
		"d/notes.txt": {Data: []byte("ignored")},
		"d/second.md": {Data: []byte(strings.Replace(goodLesson, "order: 1", "order: 2", 1))},
	}
	ls, err := parseFS(fsys, "d")
	if err == nil || !strings.Contains(err.Error(), "broken.md") || !strings.Contains(err.Error(), "order 1 already used") {
		t.Errorf("err = %v", err)
	}
	if len(ls) != 2 || ls[0].Order != 1 || ls[1].Slug != "second" {
		t.Errorf("lessons = %+v", ls)
	}
	if _, err := parseFS(fsys, "missing"); err == nil {
		t.Error("want an error for a missing directory")
	}
}

// FuzzParseLesson: whatever the bytes, parsing returns a lesson or an error,
// never a panic. Run briefly with: go test -fuzz FuzzParseLesson -fuzztime 15s ./lessons
func FuzzParseLesson(f *testing.F) {
	f.Add([]byte(goodLesson))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\nrubric:\n  - \nanswer: |\n---\nx"))
	f.Add([]byte("---\nlabs: [\n---\n"))
	md := newMarkdown()
	f.Fuzz(func(t *testing.T, src []byte) {
		l, err := parseLesson(md, "fuzz", src)
		if err == nil && (l.Title == "" || l.Order < 1 || len(l.Drill.Rubric) == 0) {
			t.Fatalf("accepted an incomplete lesson: %+v", l)
		}
	})
}
