package labs

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"testing"
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
