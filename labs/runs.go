package labs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"sync/atomic"
)

// NotRun is the final frame of a run that a learner's settings stopped
// before it started: a mistake they can fix, not a failure. When err wraps
// a FieldError its message alone is shown, without the knob's name.
func NotRun(err error) Frame {
	msg := err.Error()
	var fe FieldError
	if errors.As(err, &fe) {
		msg = fe.Message
	}
	return Frame{Final: true, Status: "Not run: the settings need a change.", Error: msg}
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
