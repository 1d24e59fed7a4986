package main

import (
	"fmt"
	"io"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/benchmark"
)

// writtenLengths counts the answers the server ended before the tokens
// asked, and returns the requests with the length each answer really had,
// so the bundled engine models the work the server did. bench asks every
// request for ignore_eos; a server that does not honour it (Ollama) ends
// an answer at the model's end-of-answer token with finish_reason "stop".
func writtenLengths(reqs []benchmark.Request, outs []benchmark.Output) (short int, written []benchmark.Request) {
	written = reqs
	for i, o := range outs {
		if !o.Success || o.FinishReason != engine.FinishStop || o.OutputTokens >= reqs[i].OutputLen || o.OutputTokens < 1 {
			continue
		}
		if short == 0 {
			written = append([]benchmark.Request(nil), reqs...)
		}
		short++
		written[i].OutputLen = o.OutputTokens
	}
	return short, written
}

// noteShort tells the reader that some answers were shorter than asked,
// so the figures count the tokens the server wrote, not the tokens asked.
func noteShort(w io.Writer, short, completed int, compare bool) {
	if short == 0 {
		return
	}
	fmt.Fprintf(w, "note: the server ended %d of %d answers before the output length asked (finish_reason \"stop\"): it does not honour ignore_eos, as Ollama does not, so token counts, TPOT and throughput count the tokens it wrote", short, completed)
	if compare {
		fmt.Fprint(w, ", and the bundled engine models those same lengths")
	}
	fmt.Fprintln(w, ".")
}
