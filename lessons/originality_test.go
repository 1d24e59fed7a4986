package lessons

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The seed lessons are the source of facts, not of prose. These tests fail
// if any text a learner can read (a lesson, a drill, the text model's
// corpus, the moderation examples, a lab's knobs, presets and messages, a
// page template) reuses a seed sentence, any run of eight words from a
// seed, a seed heading, or one of its slogans.

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

// repoRoot is the directory holding go.mod above the test's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("go.mod not found above the test directory; cannot locate ../shared/seeds")
		}
		dir = parent
	}
}

// seedTexts reads the seeds from ../shared/seeds beside the repository.
func seedTexts(t *testing.T) map[string]string {
	t.Helper()
	seeds := filepath.Join(repoRoot(t), "..", "shared", "seeds")
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

// original reports the ways text copies the seeds: a seed sentence of
// eight words or more, any run of eight words from a seed, or a seed
// heading or slogan.
type original struct {
	sentences map[string]string // normalised seed sentence → seed file
	runs      map[string]string // eight-word run → seed file
	phrases   []string          // headings and slogans
}

func newOriginal(seeds map[string]string) original {
	o := original{sentences: map[string]string{}, runs: map[string]string{}}
	for name, seed := range seeds {
		for _, s := range sentences(seed) {
			if len(words(s)) >= runLength {
				o.sentences[normal(s)] = name
			}
		}
		w := words(seed)
		for i := 0; i+runLength <= len(w); i++ {
			o.runs[strings.Join(w[i:i+runLength], " ")] = name
		}
		// Headings are short lines with no closing punctuation; reusing
		// them would copy the seeds' structure.
		for _, line := range strings.Split(seed, "\n") {
			line = strings.TrimSpace(line)
			n := len(words(line))
			if n >= 4 && n < runLength && !strings.ContainsAny(line[len(line)-1:], ".:;,") {
				o.phrases = append(o.phrases, line)
			}
		}
	}
	o.phrases = append(o.phrases, bannedPhrases...)
	return o
}

// copies lists what text shares with the seeds, one finding a line.
func (o original) copies(text string) []string {
	var out []string
	norm := normal(text)
	for s, name := range o.sentences {
		if strings.Contains(norm, s) {
			out = append(out, fmt.Sprintf("reuses a sentence of %s: %q", name, strings.TrimSpace(s)))
		}
	}
	w := words(text)
	for i := 0; i+runLength <= len(w); i++ {
		run := strings.Join(w[i:i+runLength], " ")
		if name, ok := o.runs[run]; ok {
			out = append(out, fmt.Sprintf("shares %q with %s", run, name))
		}
	}
	for _, p := range o.phrases {
		if strings.Contains(norm, normal(p)) {
			out = append(out, fmt.Sprintf("reuses seed heading or slogan %q", p))
		}
	}
	sort.Strings(out)
	return out
}

// TestLessonsAreOriginal covers every lesson, its drill question, rubric
// and model answer (all in the lesson's file).
func TestLessonsAreOriginal(t *testing.T) {
	o := newOriginal(seedTexts(t))
	for slug, src := range lessonSources(t) {
		for _, c := range o.copies(src) {
			t.Errorf("lesson %s %s", slug, c)
		}
	}
}

// TestEveryVisibleTextIsOriginal covers the rest of what a learner reads:
// the text model's corpus (the answers labs and chat stream), the
// moderation classifier's examples (the moderation lab shows flagged
// text), and every string literal of the labs (knobs, presets, notes,
// run and frame messages), the serving pipeline (system prompt, fallback
// messages), the help-centre articles the chat answers from, and the page
// templates.
func TestEveryVisibleTextIsOriginal(t *testing.T) {
	o := newOriginal(seedTexts(t))
	root := repoRoot(t)
	files := []string{"engine/textmodel/corpus.txt", "engine/moderation/data/safe.tsv", "engine/moderation/data/policy.tsv"}
	for _, dir := range []string{"labs", "engine/pipeline", "engine/textmodel", "engine/moderation", "web", "lessons/practice"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if !d.IsDir() && (strings.HasSuffix(name, ".templ") || strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".go") &&
				!strings.HasSuffix(name, "_test.go") && !strings.HasSuffix(name, "_templ.go")) {
				rel, _ := filepath.Rel(root, path)
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 50 {
		t.Fatalf("found only %d files to check; is the walk looking in the right place?", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if strings.HasSuffix(f, ".go") {
			text = stringLiterals(t, f, b)
		}
		for _, c := range o.copies(text) {
			t.Errorf("%s %s", f, c)
		}
	}
}

// stringLiterals joins a Go file's string literals: the text it can show,
// without identifiers and comments (which no learner reads).
func stringLiterals(t *testing.T, name string, src []byte) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				b.WriteString(s)
				b.WriteString(" ")
			}
		}
		return true
	})
	return b.String()
}

// TestOriginalityCheckCatchesCopies: the checker must flag a copied
// sentence, a copied eight-word run inside new text and a slogan, and
// pass text written afresh, or the tests above prove nothing.
func TestOriginalityCheckCatchesCopies(t *testing.T) {
	o := newOriginal(map[string]string{"seed.txt": "Heading of the seed\n" +
		"Streaming converts a throughput problem into a latency problem for the user. Another line here."})
	tests := []struct {
		text string
		want bool
	}{
		{"Streaming converts a throughput problem into a latency problem for the user.", true},
		{"As we said, streaming converts a throughput problem into a latency problem, truly.", true},
		{"We note that the number to defend is TTFT.", true},
		{"HEADING OF THE SEED", true},
		{"Streaming turns waiting for the whole answer into waiting for its first word.", false},
	}
	for _, tc := range tests {
		if got := len(o.copies(tc.text)) > 0; got != tc.want {
			t.Errorf("copies(%q) found %v, want %v", tc.text, got, tc.want)
		}
	}
}
