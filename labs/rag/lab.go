// Package rag is the RAG chunks and history lab. It runs real retrieval
// from the knowledge base and real prompt assembly with a token count per
// part, then sends the prompt through the bundled engine on the wall clock
// and measures the time to first token. A sweep over the number of chunks,
// timed on the virtual clock, shows TTFT growing with the prompt: the
// context that makes the answer good is the context that makes it slow to
// start.
package rag

import (
	"errors"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Slug is the lab's URL segment.
const Slug = "rag"

// Stat keys.
const (
	statPromptTokens  = "prompt_tokens"
	statTTFT          = "ttft_ms"
	statChunksTokens  = "chunks_tokens"
	statHistoryTokens = "history_tokens"
	statSystemTokens  = "system_tokens"
	statAnswerTokens  = "answer_tokens"
)

// Config wires a Lab: the engine pool and the knowledge base, both
// required here (Orders is not used).
type Config = pipelinelab.Config

// Lab is the RAG lab; safe for concurrent runs.
type Lab = labs.Kit[params]

// New returns the lab, or an error when cfg lacks the engine pool or the
// retriever.
func New(cfg Config) (*Lab, error) {
	if cfg.Retriever == nil {
		return nil, errors.New("rag: no retriever configured")
	}
	return pipelinelab.New(cfg, define, params.settings, measure)
}

// info describes the lab.
func info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "RAG chunks and history",
		Summary: "Choose how many knowledge-base passages and past turns go into the prompt, see its token count " +
			"part by part, and measure what the longer prompt costs in time to first token.",
		Lesson:         "prefill-vs-decode",
		Prediction:     "What time to first token do you expect?",
		PredictionUnit: "ms",
		PredictionStat: statTTFT,
	}
}
