package labs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
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
