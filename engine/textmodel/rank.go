package textmodel

import (
	"math"
	"math/rand/v2"
	"slices"
)

// rank orders sentences best first by the question words they contain,
// each weighted by its rarity among the sentences (1 + ln(N/df)), so a
// sentence matching "moderation" outranks one matching only the common
// "streaming"; ties keep source order. With a temperature, Gumbel noise
// scaled by it is added to each logit, which samples an order in proportion
// to exp(logit/temperature), the same rule a model's sampler applies.
func rank(sentences []sentence, qwords []string, temp float64, rng *rand.Rand) []scored {
	df := make([]int, len(qwords))
	out := make([]scored, len(sentences))
	for i, s := range sentences {
		out[i] = scored{sentence: s, index: i}
		for _, w := range s.words {
			// Questions have a handful of words: a scan beats hashing.
			if j := slices.Index(qwords, w); j >= 0 {
				df[j]++
				out[i].overlap++
			}
		}
	}
	weight := make([]float64, len(qwords))
	for j, n := range df {
		if n > 0 {
			weight[j] = 1 + math.Log(float64(len(sentences))/float64(n))
		}
	}
	for i := range out {
		if out[i].overlap > 0 {
			for _, w := range out[i].words {
				if j := slices.Index(qwords, w); j >= 0 {
					out[i].key += wordLogit * weight[j]
				}
			}
		}
		if rng != nil {
			out[i].key += temp * -math.Log(-math.Log(rng.Float64()+1e-300)+1e-300)
		}
	}
	slices.SortFunc(out, func(a, b scored) int {
		switch {
		case a.key > b.key:
			return -1
		case a.key < b.key:
			return 1
		}
		return a.index - b.index
	})
	return out
}

// wordLogit is the log-odds a shared question word adds to a sentence per
// unit of rarity weight: at temperature 1 a sentence with one more common
// matching word is e² ≈ 7 times as likely to come first, one more rare word
// far more, so sampled answers vary but stay on topic.
const wordLogit = 2.0

// scored is a sentence with its overlap and ranking key.
type scored struct {
	sentence
	overlap int     // question words it contains
	key     float64 // ranking logit, noise included when sampling
	index   int     // position in the source, for stable ties
}

// relevant counts the sentences that share at least one word with the
// question.
func relevant(pool []scored) int {
	n := 0
	for _, s := range pool {
		if s.overlap > 0 {
			n++
		}
	}
	return n
}
