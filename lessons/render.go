package lessons

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// wordsPerMinute is a comfortable pace for technical prose read on a screen.
const wordsPerMinute = 200

// newMarkdown builds the renderer. Raw HTML in the Markdown is dropped
// (goldmark's default), so even a slip in our own files cannot inject markup.
// Table alignment is written as an align attribute rather than an inline
// style, so a Content-Security-Policy without 'unsafe-inline' styles still
// right-aligns the number columns.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.NewTable(
			extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute),
		)),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(codeBlocks{}, 100))),
	)
}

// parseFS reads every *.md file in dir, parses and renders it, and returns
// the lessons sorted by Order. Errors from all files are joined so one test
// run names every broken file; lessons that parsed are still returned.
func parseFS(fsys fs.FS, dir string) ([]Lesson, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read lessons: %w", err)
	}
	md := newMarkdown()
	var (
		out  []Lesson
		errs []error
	)
	byOrder := map[int]string{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".md") {
			continue
		}
		src, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		l, err := parseLesson(md, strings.TrimSuffix(name, ".md"), src)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if other, dup := byOrder[l.Order]; dup {
			errs = append(errs, fmt.Errorf("%s: order %d already used by %s", name, l.Order, other))
			continue
		}
		byOrder[l.Order] = l.Slug
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out, errors.Join(errs...)
}

// parseLesson turns one file into a Lesson.
func parseLesson(md goldmark.Markdown, slug string, src []byte) (Lesson, error) {
	if !slugPattern.MatchString(slug) {
		return Lesson{}, fmt.Errorf("file name %q is not a valid slug", slug)
	}
	header, body, err := splitFrontMatter(src)
	if err != nil {
		return Lesson{}, err
	}
	fm, err := parseFrontMatter(header)
	if err != nil {
		return Lesson{}, fmt.Errorf("front matter: %w", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return Lesson{}, fmt.Errorf("empty body")
	}
	html, err := render(md, body)
	if err != nil {
		return Lesson{}, fmt.Errorf("body: %w", err)
	}
	answer, err := render(md, []byte(fm.Answer))
	if err != nil {
		return Lesson{}, fmt.Errorf("answer: %w", err)
	}
	return Lesson{
		Slug:    slug,
		Title:   fm.Title,
		Order:   fm.Order,
		Summary: fm.Summary,
		Minutes: readingMinutes(body),
		Labs:    fm.Labs,
		HTML:    html,
		Drill: Drill{
			Question:    fm.Question,
			Rubric:      fm.Rubric,
			ModelAnswer: answer,
		},
	}, nil
}

func render(md goldmark.Markdown, src []byte) (string, error) {
	var buf bytes.Buffer
	if err := md.Convert(src, &buf); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// countWords counts whitespace-separated words, skipping Markdown that is
// pure punctuation (table rules, list bullets, "#" marks).
func countWords(src []byte) int {
	n := 0
	for _, f := range strings.Fields(string(src)) {
		if strings.ContainsFunc(f, func(r rune) bool {
			return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		}) {
			n++
		}
	}
	return n
}

// readingMinutes rounds up so a short lesson still shows "1 min".
func readingMinutes(body []byte) int {
	return max(1, (countWords(body)+wordsPerMinute-1)/wordsPerMinute)
}
