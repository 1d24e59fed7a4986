// Package textmodel is the bundled engine's text model: a real BPE tokenizer
// (cl100k_base from github.com/tiktoken-go/tokenizer), a Llama-3 style chat
// template, and an answer composer that writes readable sentences drawn from
// the request's own context (or a small bundled corpus when there is none).
//
// Every token count and every streamed token in Latency Lab goes through this
// package, so counts are real BPE counts and streamed pieces are real token
// boundaries, while generation itself costs microseconds instead of a GPU.
//
// The zero Model is ready to use and loads its vocabulary on first use; the
// package-level functions share one such Model.
package textmodel
