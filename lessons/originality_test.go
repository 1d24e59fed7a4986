package lessons

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The seed lessons are the source of facts, not of prose. These tests fail
// if a lesson reuses a seed sentence, any run of eight words from a seed, a
// seed heading, or one of its slogans.

const runLength = 8

// bannedPhrases are the seeds' memorable lines, short enough to slip under
// the eight-word check.
var bannedPhrases = []string{
	"does not survive contact",
	"first token fast",
	"blocking mindset",
	"streaming mindset",
	"rather than called an api",
	"the wait is hidden behind",
	"start with the largest number",
	"users judge a product by its bad moments",
	"the number to defend",
}

// seedTexts reads the seeds from ../shared/seeds beside the repository.
func seedTexts(t *testing.T) map[string]string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("go.mod not found above the test directory; cannot locate ../shared/seeds")
		}
		dir = parent
	}
	seeds := filepath.Join(dir, "..", "shared", "seeds")
	names, _ := filepath.Glob(filepath.Join(seeds, "*.txt"))
	if len(names) == 0 {
		t.Skipf("no seed lessons in %s; the originality check needs them to run", seeds)
	}
	out := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = string(b)
	}
	return out
}

// words lowercases and keeps only letters and digits, so punctuation, case,
// Markdown marks and line breaks cannot hide a copied passage.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func normal(s string) string { return " " + strings.Join(words(s), " ") + " " }

var sentenceEnd = regexp.MustCompile(`[.!?;:]\s|\n`)

func sentences(s string) []string { return sentenceEnd.Split(s, -1) }

func lessonSources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, slug := range embeddedSlugs(t) {
		b, err := fs.ReadFile(content, "content/"+slug+".md")
		if err != nil {
			t.Fatal(err)
		}
		out[slug] = string(b)
	}
	return out
}

func TestNoSeedSentenceReused(t *testing.T) {
	seeds := seedTexts(t)
	for slug, src := range lessonSources(t) {
		lesson := normal(src)
		for name, seed := range seeds {
			for _, s := range sentences(seed) {
				if len(words(s)) < runLength {
					continue
				}
				if strings.Contains(lesson, normal(s)) {
					t.Errorf("%s reuses a sentence of %s: %q", slug, name, strings.TrimSpace(s))
				}
			}
		}
	}
}

func TestNoEightWordRunSharedWithSeeds(t *testing.T) {
	seeds := seedTexts(t)
	runs := map[string]string{}
	for name, seed := range seeds {
		w := words(seed)
		for i := 0; i+runLength <= len(w); i++ {
			runs[strings.Join(w[i:i+runLength], " ")] = name
		}
	}
	for slug, src := range lessonSources(t) {
		w := words(src)
		for i := 0; i+runLength <= len(w); i++ {
			run := strings.Join(w[i:i+runLength], " ")
			if name, ok := runs[run]; ok {
				t.Errorf("%s shares %q with %s", slug, run, name)
			}
		}
	}
}

// TestNoSeedHeadingsOrSlogans: headings are short lines with no closing
// punctuation; reusing them would copy the seeds' structure.
func TestNoSeedHeadingsOrSlogans(t *testing.T) {
	seeds := seedTexts(t)
	var phrases []string
	for _, seed := range seeds {
		for _, line := range strings.Split(seed, "\n") {
			line = strings.TrimSpace(line)
			n := len(words(line))
			if n >= 4 && n < runLength && !strings.ContainsAny(line[len(line)-1:], ".:;,") {
				phrases = append(phrases, line)
			}
		}
	}
	phrases = append(phrases, bannedPhrases...)
	for slug, src := range lessonSources(t) {
		lesson := normal(src)
		for _, p := range phrases {
			if strings.Contains(lesson, normal(p)) {
				t.Errorf("%s reuses seed heading or slogan %q", slug, p)
			}
		}
	}
}
