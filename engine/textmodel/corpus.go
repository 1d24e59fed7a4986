package textmodel

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

//go:embed corpus.txt
var corpusText string

// corpus is the bundled fallback material, split and encoded once per Model.
type corpus struct {
	sentences []sentence
	ids       [][]int // ids of " "+sentence, as it appears inside an answer
}

func loadCorpus(st *state) (*corpus, error) {
	c := &corpus{}
	topic := 0
	for line := range strings.Lines(corpusText) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			topic++ // a heading starts a section; the topic only has to differ
			continue
		}
		if line == "" {
			continue
		}
		if !readable(line) {
			return nil, fmt.Errorf("corpus line %q is not a sentence", line)
		}
		c.sentences = append(c.sentences, sentence{text: line, words: contentWords(line), topic: topic})
		c.ids = append(c.ids, st.encode(" "+line))
	}
	if len(c.sentences) == 0 {
		return nil, fmt.Errorf("corpus is empty")
	}
	return c, nil
}

// onTopic keeps the ranked corpus sentences that share a question word
// first and moves, among the rest, those of the best match's section ahead
// of the others (order otherwise kept): an answer padded to its natural
// length, or continued past it, stays on the subject the question hit
// instead of wandering from refunds into GPU memory.
func onTopic(pool []scored) []scored {
	if len(pool) == 0 || pool[0].overlap == 0 {
		return pool
	}
	topic := pool[0].topic
	n := relevant(pool)
	out := slices.Clone(pool[:n])
	var elsewhere []scored
	for _, s := range pool[n:] {
		if s.topic == topic {
			out = append(out, s)
		} else {
			elsewhere = append(elsewhere, s)
		}
	}
	return append(out, elsewhere...)
}

// Openers start an answer. They are short, true of any answer built from
// the matching source, and chosen per question so answers do not all open
// alike.
var (
	contextOpeners = []string{
		"Here is what the reference material says.",
		"Based on the provided context, here is the answer.",
		"The context covers this directly.",
		"From the documents provided, the key points are these.",
		"According to the supplied sources, here is the short version.",
	}
	corpusOpeners = []string{
		"Here is a short overview.",
		"Good question.",
		"In short, it comes down to a few points.",
		"Here is how it works.",
		"Let me walk through it.",
	}
)
