package moderation

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
)

//go:embed data/policy.tsv
var policyData string

// The classifier's labels: one safe class and one per policy category.
const labelSafe = "safe"

var labelCategory = map[string]Category{
	"fraud":       PolicyFraud,
	"credentials": PolicyCredTheft,
	"abuse":       PolicyAbuse,
}

// Example is one labelled line of training text.
type Example struct {
	Label string // "safe", "fraud", "credentials" or "abuse"
	Text  string
}

// PolicyExamples parses the bundled training file: one example a line,
// label and text separated by a tab; blank lines and "#" comments skipped.
func PolicyExamples() ([]Example, error) { return parseExamples(policyData) }

func parseExamples(data string) ([]Example, error) {
	var out []Example
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		label, text, ok := strings.Cut(line, "\t")
		if !ok || strings.TrimSpace(text) == "" {
			return nil, fmt.Errorf("policy data line %d: want label<TAB>text", i+1)
		}
		if _, known := labelCategory[label]; !known && label != labelSafe {
			return nil, fmt.Errorf("policy data line %d: unknown label %q", i+1, label)
		}
		out = append(out, Example{Label: label, Text: text})
	}
	return out, nil
}

// Classifier is a multinomial naive Bayes model over word unigrams and
// bigrams. It is small and fast enough to run on every window of a stream,
// which is the point: a real moderation model is slower and better, and the
// lab's latency knob stands in for that difference. It is read-only after
// training and safe for concurrent use.
type Classifier struct {
	labels  []string
	prior   []float64            // log P(label)
	logp    []map[string]float64 // log P(feature | label)
	unknown []float64            // log P(unseen feature | label)
	// Margin is how much more likely (in natural log odds) the best
	// unsafe label must be than safe before a sentence is flagged.
	Margin float64
}

// DefaultMargin trades a few missed lines for few false alarms on ordinary
// support text; see TestClassifierHeldOut.
const DefaultMargin = 3.0

// Train fits a classifier to examples with add-one smoothing.
func Train(examples []Example) (*Classifier, error) {
	if len(examples) == 0 {
		return nil, errors.New("train: no examples")
	}
	idx := map[string]int{}
	var counts []map[string]int
	var totals, docs []int
	vocab := map[string]bool{}
	c := &Classifier{Margin: DefaultMargin}
	for _, ex := range examples {
		i, ok := idx[ex.Label]
		if !ok {
			i = len(c.labels)
			idx[ex.Label] = i
			c.labels = append(c.labels, ex.Label)
			counts = append(counts, map[string]int{})
			totals, docs = append(totals, 0), append(docs, 0)
		}
		docs[i]++
		for _, f := range features(ex.Text) {
			counts[i][f]++
			totals[i]++
			vocab[f] = true
		}
	}
	if _, ok := idx[labelSafe]; !ok {
		return nil, errors.New("train: no safe examples")
	}
	v := float64(len(vocab))
	for i := range c.labels {
		c.prior = append(c.prior, math.Log(float64(docs[i])/float64(len(examples))))
		denom := float64(totals[i]) + v
		lp := make(map[string]float64, len(counts[i]))
		for f, n := range counts[i] {
			lp[f] = math.Log((float64(n) + 1) / denom)
		}
		c.logp = append(c.logp, lp)
		c.unknown = append(c.unknown, math.Log(1/denom))
	}
	return c, nil
}

// defaultClassifier is trained once, at first use, from the bundled data.
var defaultClassifier = sync.OnceValues(func() (*Classifier, error) {
	ex, err := PolicyExamples()
	if err != nil {
		return nil, err
	}
	return Train(ex)
})

// DefaultClassifier returns the classifier trained on the bundled data.
func DefaultClassifier() (*Classifier, error) { return defaultClassifier() }

// Scores returns each label's log score (log prior plus log likelihood).
func (c *Classifier) Scores(text string) map[string]float64 {
	fs := features(text)
	out := make(map[string]float64, len(c.labels))
	for i, l := range c.labels {
		s := c.prior[i]
		for _, f := range fs {
			if p, ok := c.logp[i][f]; ok {
				s += p
			} else {
				s += c.unknown[i]
			}
		}
		out[l] = s
	}
	return out
}

// Predict returns the label for text: the best unsafe label when it beats
// safe by at least Margin, otherwise "safe". Text without a single word is
// safe.
func (c *Classifier) Predict(text string) string {
	if len(features(text)) == 0 {
		return labelSafe
	}
	sc := c.Scores(text)
	best, bestScore := labelSafe, math.Inf(-1)
	labels := append([]string(nil), c.labels...)
	sort.Strings(labels) // ties resolve the same way every time
	for _, l := range labels {
		if l != labelSafe && sc[l] > bestScore {
			best, bestScore = l, sc[l]
		}
	}
	if best == labelSafe || bestScore-sc[labelSafe] < c.Margin {
		return labelSafe
	}
	return best
}

// features are the lower-cased words of text and each pair of neighbours.
func features(text string) []string {
	words := words(text)
	out := make([]string, 0, 2*len(words))
	out = append(out, words...)
	for i := 1; i < len(words); i++ {
		out = append(out, words[i-1]+" "+words[i])
	}
	return out
}

// words splits text into lower-case runs of letters, digits and
// apostrophes (ASCII letters folded; other letters kept as they are).
func words(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range text {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '\'', r > 127 && isLetter(r):
			b.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}
