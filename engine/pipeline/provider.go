package pipeline

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/latencylab/latencylab/engine/textmodel"
)

// Provider streams chat completions from a model: the bundled engine, an
// upstream OpenAI-compatible server, or a wrapper that injects faults. It is
// the one seam between the pipeline and whatever writes the answer.
type Provider interface {
	// Stream starts a completion. Cancelling ctx must stop generation (an
	// engine frees the request's KV blocks, an HTTP client closes the
	// connection). Errors that happen before or during generation may be
	// returned here or from the stream's Recv.
	Stream(ctx context.Context, req ProviderRequest) (Stream, error)
}

// ProviderRequest is one completion to stream.
type ProviderRequest struct {
	ID       string // for the provider's logs and engine request ids
	Model    string // the tier's model name (upstream) or label (engine)
	Messages []textmodel.Message
	// MaxTokens caps the answer; 0 leaves it to the model.
	MaxTokens int
	// ExactTokens, when above 0, asks for exactly that many tokens
	// (ignore_eos), so labs can fix the answer length.
	ExactTokens int
	Temperature float64
	Seed        int64
	// OffTopic is what the assistant says to a question its context does
	// not cover. The bundled engine answers with it; a real model follows
	// the system prompt instead.
	OffTopic string
}

// Stream is one streamed completion.
type Stream interface {
	// Recv returns the next event. After the final event (Done) it returns
	// io.EOF. A failure mid-stream, or the context ending, is an error.
	Recv() (StreamEvent, error)
	// Close stops the stream and releases what it holds; safe to call
	// more than once and after the end.
	Close() error
}

// StreamEvent is a chunk of text or, with Done set, the end of a stream
// with its usage and finish reason.
type StreamEvent struct {
	Text string
	// Reasoning is thinking a reasoning model wrote before its answer,
	// which a server streams apart from the answer text. It is not the
	// answer: the first word a reader can use is the first Text.
	Reasoning string
	// Tokens is how many tokens this chunk carries (a chunk may carry
	// none); a chunk with both texts counts them all as answer tokens.
	Tokens int
	At     time.Time // when the chunk arrived, on the provider's clock
	// Since is the chunk's modelled time from the call (Stream) to its
	// arrival, set by providers that model their time (the bundled
	// engine's GPU stamps, the modelled network); 0 when the provider
	// models none (a real server). The pipeline's figures use it, so a
	// host that runs the call late does not move them.
	Since time.Duration

	Done         bool
	FinishReason string
	Usage        Usage
}

// Usage is a completion's token accounting.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	CachedTokens     int // prompt tokens served from a prefix cache
}

// OutputChecker is what a Provider implements when it checks the answer
// before the reader sees it (an output moderation wrapper that stops a
// stream with ErrContentFilter). Such a check reads the answer text only,
// so the gateway withholds a reasoning model's thinking from the reader
// when the tier's outermost provider says it checks output: showing it
// would put unchecked model text on screen.
type OutputChecker interface {
	ChecksOutput() bool
}

// checksOutput says whether p declares an output check.
func checksOutput(p Provider) bool {
	oc, ok := p.(OutputChecker)
	return ok && oc.ChecksOutput()
}

// ErrRefused is what a provider that turns a request away wraps.
var ErrRefused = errors.New("provider refused the request")

// chanStream adapts a channel of events fed by a goroutine. The feeding
// goroutine closes the channel after the final event or an error item.
type chanStream struct {
	ctx    context.Context
	cancel context.CancelFunc
	ch     <-chan streamItem
	ended  bool
}

type streamItem struct {
	ev  StreamEvent
	err error
}

func (s *chanStream) Recv() (StreamEvent, error) {
	if s.ended {
		return StreamEvent{}, io.EOF
	}
	it, ok := <-s.ch
	switch {
	case !ok:
		s.ended = true
		if err := s.ctx.Err(); err != nil {
			return StreamEvent{}, context.Cause(s.ctx)
		}
		return StreamEvent{}, errors.New("stream ended without a final event")
	case it.err != nil:
		s.ended = true
		return StreamEvent{}, it.err
	case it.ev.Done:
		s.ended = true
	}
	return it.ev, nil
}

func (s *chanStream) Close() error {
	s.cancel()
	return nil
}
