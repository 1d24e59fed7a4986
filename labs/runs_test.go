package labs

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

func TestNotRun(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"field error shows its message alone", FieldError{Knob: "gpu", Message: "too small"}, "too small"},
		{"wrapped field error", fmt.Errorf("parse: %w", FieldError{Knob: "gpu", Message: "too small"}), "too small"},
		{"other error shows whole", errors.New("no such model"), "no such model"},
	}
	for _, tc := range tests {
		f := NotRun(tc.err)
		if !f.Final || f.Error != tc.want || f.Status != "Not run: the settings need a change." {
			t.Errorf("%s: NotRun = %+v, want a final frame with error %q", tc.name, f, tc.want)
		}
	}
}

func TestNewTag(t *testing.T) {
	a, b := NewTag(), NewTag()
	hex8 := regexp.MustCompile(`^[0-9a-f]{8}$`)
	if !hex8.MatchString(a) || !hex8.MatchString(b) {
		t.Fatalf("tags %q, %q: want eight hex digits", a, b)
	}
	if a == b {
		t.Errorf("two tags are both %q", a)
	}
}

func TestJoinFieldErrors(t *testing.T) {
	a, b := FieldError{Knob: "a", Message: "bad a"}, FieldError{Knob: "b", Message: "bad b"}
	if err := JoinFieldErrors(nil); err != nil {
		t.Errorf("no field errors: %v, want nil", err)
	}
	if err := JoinFieldErrors([]FieldError{a}); err != a {
		t.Errorf("one field error: %v, want it unwrapped", err)
	}
	err := JoinFieldErrors([]FieldError{a, b})
	var fe FieldError
	if !errors.As(err, &fe) || fe != a || err.Error() != "a: bad a\nb: bad b" {
		t.Errorf("two field errors: %v, want both joined", err)
	}
}

// TestRunIDs checks ids are numbered from 1, carry the slug and tag, and
// differ between lab instances.
func TestRunIDs(t *testing.T) {
	ids := NewRunIDsTag("lab", "abcd")
	for want := uint64(1); want <= 3; want++ {
		n, id := ids.Next()
		if n != want || id != "lab-abcd-"+strconv.FormatUint(want, 10) {
			t.Fatalf("Next() = %d, %q; want %d, lab-abcd-%d", n, id, want, want)
		}
	}
	if a, b := NewRunIDs("lab"), NewRunIDs("lab"); a.Tag() == b.Tag() {
		t.Fatalf("two instances share the tag %q", a.Tag())
	}
}

func TestRunFailed(t *testing.T) {
	server := errors.New("disk full")
	refused := fmt.Errorf("sweep: %w", &engine.ContextLengthError{MaxContext: 8192, Prompt: 9000, Completion: 10})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name      string
		ctx       context.Context
		err       error
		want      error
		wantFrame bool
	}{
		{"ctx ended", cancelled, server, context.Canceled, false},
		{"engine refused the prompt", context.Background(), refused, nil, true},
		{"server failure", context.Background(), server, server, false},
	} {
		var frames []Frame
		err := RunFailed(tc.ctx, tc.err, func(f Frame) { frames = append(frames, f) })
		if !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.want)
		}
		if got := len(frames) == 1 && frames[0].Final && frames[0].Error != ""; got != tc.wantFrame || (!tc.wantFrame && len(frames) > 0) {
			t.Errorf("%s: frames %+v, want a final message: %v", tc.name, frames, tc.wantFrame)
		}
	}
}

func TestSubmitRefused(t *testing.T) {
	for _, tc := range []struct {
		name      string
		err       error
		wantErr   string // "" when the run ends with a frame instead
		wantFrame string
	}{
		{"a closed engine is the server's failure", live.ErrClosed, "toy: submit: ", ""},
		{"a refusal is the learner's to fix", errors.New("prompt of 9000 tokens exceeds the context"), "", "prompt of 9000 tokens exceeds the context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var frames []Frame
			err := SubmitRefused("toy", tc.err, "Not run.", func(f Frame) { frames = append(frames, f) })
			if tc.wantErr != "" {
				if err == nil || !errors.Is(err, tc.err) || !strings.HasPrefix(err.Error(), tc.wantErr) || len(frames) != 0 {
					t.Errorf("err %v, frames %+v; want %q… wrapping the error and no frame", err, frames, tc.wantErr)
				}
				return
			}
			if err != nil || len(frames) != 1 || !frames[0].Final || frames[0].Status != "Not run." || frames[0].Error != tc.wantFrame {
				t.Errorf("err %v, frames %+v; want one final frame with the engine's message", err, frames)
			}
		})
	}
}
