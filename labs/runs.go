package labs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// NotRun is the final frame of a run that a learner's settings stopped
// before it started: a mistake they can fix, not a failure. A FieldError's
// message is shown without the knob's name; joined errors (see
// JoinFieldErrors) show every message, one a line.
func NotRun(err error) Frame {
	return Frame{Final: true, Status: "Not run: the settings need a change.", Error: learnerMessage(err)}
}

// learnerMessage is err's text for the learner, without knob names.
func learnerMessage(err error) string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		msgs := make([]string, 0, len(j.Unwrap()))
		for _, e := range j.Unwrap() {
			msgs = append(msgs, learnerMessage(e))
		}
		return strings.Join(msgs, "\n")
	}
	var fe FieldError
	if errors.As(err, &fe) {
		return fe.Message
	}
	return err.Error()
}

// RunFailed turns the error a run ended with into its outcome: ctx's end
// is returned as it is; the engine refusing a prompt beyond the model's
// context (the learner's settings, not a failure) ends the run with a
// final "Not run." frame and a nil error; anything else is the server's
// failure and is returned.
func RunFailed(ctx context.Context, err error, emit func(Frame)) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var cl *engine.ContextLengthError
	if errors.As(err, &cl) {
		emit(Frame{Final: true, Status: "Not run.", Error: cl.Error()})
		return nil
	}
	return err
}

// SubmitRefused ends a run whose request a live engine's Submit did not
// take. A closed engine is the server's failure: it is returned, wrapped
// with what (the lab). Anything else is the engine refusing the request
// (context length, KV capacity), which is about the learner's settings:
// the run ends with a final frame showing status and the engine's message,
// and a nil error.
func SubmitRefused(what string, err error, status string, emit func(Frame)) error {
	if errors.Is(err, live.ErrClosed) {
		return fmt.Errorf("%s: submit: %w", what, err)
	}
	emit(Frame{Final: true, Status: status, Error: err.Error()})
	return nil
}

// NewTag returns eight random hex digits. A lab puts it in its request ids
// and session lines, with a sequence number, so that runs of different lab
// instances never collide in a shared engine or reuse each other's cached
// prefixes (a repeat run must not look faster than the first).
func NewTag() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
	return hex.EncodeToString(b[:])
}

// RunIDs numbers one lab instance's runs: ids read "slug-tag-n" with the
// instance's random tag, so runs never collide in a shared engine and never
// reuse each other's cached prefixes. Safe for concurrent use.
type RunIDs struct {
	prefix string
	tag    string
	seq    atomic.Uint64
}

// NewRunIDs starts the numbering for a lab with a fresh tag.
func NewRunIDs(slug string) *RunIDs { return NewRunIDsTag(slug, NewTag()) }

// NewRunIDsTag starts the numbering with a fixed tag, so tests get the same
// prompts and ids on every run.
func NewRunIDsTag(slug, tag string) *RunIDs {
	return &RunIDs{prefix: slug + "-" + tag + "-", tag: tag}
}

// Next returns the next run's number (from 1) and its id.
func (r *RunIDs) Next() (uint64, string) {
	n := r.seq.Add(1)
	return n, r.prefix + strconv.FormatUint(n, 10)
}

// Tag is the instance's random tag, for prompt session lines.
func (r *RunIDs) Tag() string { return r.tag }
