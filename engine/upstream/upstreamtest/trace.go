// Package upstreamtest is an OpenAI-compatible server for tests that
// streams chat and text completions with the per-token timings of a
// recorded real run, on a clock the test controls. Tests of anything that
// talks to an upstream server (bench, the labs' "that server" engine) point
// at it instead of a GPU.
package upstreamtest

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Trace is a recorded run: per request, when it was sent, its lengths, its
// time to first token and the gap before every later token.
type Trace struct {
	// Source is the address of the recording; License, Recorded, Server
	// and Selection say whose it is, how it was made, what served it and
	// which requests were kept.
	Source    string         `json:"source"`
	License   string         `json:"license"`
	Recorded  string         `json:"recorded"`
	Server    string         `json:"server"`
	Selection string         `json:"selection"`
	Requests  []TraceRequest `json:"requests"`
}

// TraceRequest is one recorded request; times are in milliseconds.
type TraceRequest struct {
	SentOffsetMS float64   `json:"sent_offset_ms"`
	InputTokens  int       `json:"input_tokens"`
	OutputTokens int       `json:"output_tokens"`
	TTFTMS       float64   `json:"ttft_ms"`
	ITLMS        []float64 `json:"itl_ms"`
}

// maxWaitMS bounds a recorded wait (an hour), so no playback overflows.
const maxWaitMS = 3_600_000

//go:embed testdata/aiperf-gpt-oss-20b-c100.json
var recorded []byte

// Recorded is the shipped trace: eight requests of an AIPerf run of
// openai/gpt-oss-20b at 100 concurrent chat requests (see its source field).
func Recorded() Trace {
	t, err := LoadTrace(bytesReader(recorded))
	if err != nil {
		panic("upstreamtest: the embedded trace does not load: " + err.Error()) // a broken build, not input
	}
	return t
}

// LoadTrace reads and checks a trace.
func LoadTrace(r io.Reader) (Trace, error) {
	var t Trace
	if err := json.NewDecoder(r).Decode(&t); err != nil {
		return t, fmt.Errorf("read trace: %w", err)
	}
	if len(t.Requests) == 0 {
		return t, errors.New("read trace: no requests")
	}
	for i, q := range t.Requests {
		if !(q.TTFTMS >= 0 && q.TTFTMS <= maxWaitMS) || len(q.ITLMS) == 0 || q.OutputTokens != len(q.ITLMS)+1 {
			return t, fmt.Errorf("read trace: request %d: want a TTFT of 0 to 1 hour and one gap per token after the first", i)
		}
		for _, g := range q.ITLMS {
			if !(g >= 0 && g <= maxWaitMS) {
				return t, fmt.Errorf("read trace: request %d: a gap outside 0 to 1 hour", i)
			}
		}
	}
	return t, nil
}

// TTFT is the recorded time to first token.
func (q TraceRequest) TTFT() time.Duration { return ms(q.TTFTMS) }

// Gap is the recorded wait before token k (k >= 1); past the recorded
// answer the gaps repeat from the start, so any length can be played.
func (q TraceRequest) Gap(k int) time.Duration { return ms(q.ITLMS[(k-1)%len(q.ITLMS)]) }

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
