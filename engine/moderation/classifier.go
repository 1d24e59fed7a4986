package moderation

import (
	"math"
	"slices"
)

// Classifier is a naive Bayes model over the distinct words of a line
// (binarised multinomial); words it never saw carry no evidence. It is small
// and fast enough to run on every window of a stream, which is the point: a
// real moderation model is slower and better, and the lab's latency knob
// stands in for that difference. It is read-only after training and safe
// for concurrent use.
type Classifier struct {
	labels []string
	prior  []float64            // log P(label)
	logp   []map[string]float64 // log P(word | label), for every word seen in training
	// Threshold is the posterior log-odds (any unsafe label against safe)
	// a text must reach to be flagged; Calibrate chooses it.
	Threshold float64
	// MinEvidence is how many words of a text must lean towards the
	// flagged label (each at least evidenceRatio in log-likelihood) before
	// it is flagged; detectPolicy asks more of window fragments.
	MinEvidence int
}

// Scores returns each label's log score (log prior plus the log
// likelihood of the known words; unknown words carry no evidence).
func (c *Classifier) Scores(text string) map[string]float64 {
	fs := features(text)
	out := make(map[string]float64, len(c.labels))
	for i, l := range c.labels {
		s := c.prior[i]
		for _, f := range fs {
			s += c.logp[i][f] // 0 for an unknown word
		}
		out[l] = s
	}
	return out
}

// LogOdds returns the posterior log-odds that text is unsafe (any unsafe
// label against safe) and the most likely unsafe label.
func (c *Classifier) LogOdds(text string) (float64, string) {
	odds, label, _ := c.judge(text, 0)
	return odds, label
}

// evidenceRatio is the log-likelihood ratio (unsafe label against safe) a
// word needs to count as evidence (about twice as likely), so common words
// that lean a little ("jacket", "the") do not add up to a verdict.
const evidenceRatio = 0.75

// judge returns the log-odds, the best unsafe label and whether text has
// enough evidence for it (MinEvidence+extra words leaning that way).
func (c *Classifier) judge(text string, extra int) (float64, string, bool) {
	fs := features(text)
	si := slices.Index(c.labels, labelSafe)
	best, bestScore := "", math.Inf(-1)
	var unsafe []float64
	for i, l := range c.labels {
		if i == si {
			continue
		}
		s := c.prior[i]
		for _, f := range fs {
			s += c.logp[i][f]
		}
		unsafe = append(unsafe, s)
		if s > bestScore || s == bestScore && l < best { // ties resolve the same way every time
			best, bestScore = l, s
		}
	}
	if best == "" {
		return math.Inf(-1), labelSafe, false
	}
	safe := c.prior[si]
	for _, f := range fs {
		safe += c.logp[si][f]
	}
	evidence := 0
	bi := slices.Index(c.labels, best)
	for _, f := range fs {
		if p, ok := c.logp[bi][f]; ok && p-c.logp[si][f] >= evidenceRatio {
			evidence++
		}
	}
	return logSumExp(unsafe) - safe, best, evidence >= c.MinEvidence+extra
}

func logSumExp(xs []float64) float64 {
	m := slices.Max(xs)
	var s float64
	for _, x := range xs {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}

// Predict returns the label for text: the most likely unsafe label when
// the log-odds reach Threshold and enough known words point to it,
// otherwise "safe".
func (c *Classifier) Predict(text string) string { return c.predict(text, 0) }

// predict is Predict with extra words of evidence required.
func (c *Classifier) predict(text string, extra int) string {
	odds, label, ok := c.judge(text, extra)
	if !ok || odds < c.Threshold {
		return labelSafe
	}
	return label
}
