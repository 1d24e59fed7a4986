package textmodel

import (
	_ "embed"
	"fmt"
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
	for line := range strings.Lines(corpusText) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !readable(line) {
			return nil, fmt.Errorf("corpus line %q is not a sentence", line)
		}
		c.sentences = append(c.sentences, sentence{text: line, words: contentWords(line)})
		c.ids = append(c.ids, st.encode(" "+line))
	}
	if len(c.sentences) == 0 {
		return nil, fmt.Errorf("corpus is empty")
	}
	return c, nil
}

// Openers start an answer. They are short, true of any answer built from
// the matching source, and chosen per question so answers do not all open
// alike.
var (
	contextOpeners = []string{
		"Here is what the material you shared says.",
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
