package benchmark

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
)

// ShareGPT filters, as vLLM's is_valid_sequence: prompts and answers of at
// least 4 tokens, prompts of at most 1,024 and both together at most 2,048.
const (
	shareGPTMinLen    = 4
	shareGPTMaxPrompt = 1024
	shareGPTMaxTotal  = 2048
	// maxShareGPTBytes bounds the file read: the full public ShareGPT
	// split is about 670 MB.
	maxShareGPTBytes = 1 << 30
)

// shareGPTEntry is one conversation of a ShareGPT-style file: a list of
// {"from": "human"|"gpt", "value": text} turns.
type shareGPTEntry struct {
	Conversations []struct {
		From  string `json:"from"`
		Value string `json:"value"`
	} `json:"conversations"`
}

// LoadShareGPT draws w.NumRequests requests from a ShareGPT-style JSON file
// as `vllm bench serve --dataset-name sharegpt` does: conversations with at
// least two turns, shuffled by the seed; the first turn is the prompt and
// the second's token count the output length, unless outputLen (vLLM's
// --sharegpt-output-len) fixes it; pairs outside vLLM's length filter are
// skipped, and when too few remain, valid ones are drawn again at random
// (vLLM's oversampling). Arrivals follow w's rate and burstiness.
func LoadShareGPT(r io.Reader, tok Tokenizer, w Workload, outputLen int) ([]Request, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	if outputLen < 0 || outputLen > maxLen {
		return nil, fmt.Errorf("sharegpt output length %d out of range: want 0 (from the file) or 1..%d", outputLen, maxLen)
	}
	var entries []shareGPTEntry
	dec := json.NewDecoder(io.LimitReader(r, maxShareGPTBytes))
	if err := dec.Decode(&entries); err != nil {
		return nil, fmt.Errorf("read sharegpt dataset: want a JSON list of {\"conversations\": [{\"from\", \"value\"}, ...]}: %w", err)
	}
	rng := rand.New(rand.NewPCG(w.Seed, 0x73686172656770))
	rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
	var reqs []Request
	for _, e := range entries {
		if len(reqs) == w.NumRequests {
			break
		}
		if len(e.Conversations) < 2 {
			continue
		}
		ids := tok.Encode(e.Conversations[0].Value)
		out := outputLen
		if out == 0 {
			out = len(tok.Encode(e.Conversations[1].Value))
		}
		if len(ids) < shareGPTMinLen || (outputLen == 0 && out < shareGPTMinLen) ||
			len(ids) > shareGPTMaxPrompt || len(ids)+out > shareGPTMaxTotal {
			continue
		}
		reqs = append(reqs, Request{Prompt: e.Conversations[0].Value, PromptLen: len(ids), PromptTokens: ids, OutputLen: out})
	}
	if len(reqs) == 0 {
		return nil, fmt.Errorf("sharegpt dataset has no conversation that passes vLLM's filter (two turns, prompt 4..%d tokens, prompt+answer <= %d)", shareGPTMaxPrompt, shareGPTMaxTotal)
	}
	for valid := len(reqs); len(reqs) < w.NumRequests; {
		reqs = append(reqs, reqs[rng.IntN(valid)])
	}
	arrivals := Arrivals(len(reqs), w.RequestRate, w.Burstiness, rng)
	for i := range reqs {
		reqs[i].ID = "bench-" + strconv.Itoa(i)
		reqs[i].Arrival = arrivals[i]
	}
	return reqs, nil
}
