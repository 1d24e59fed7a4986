package labs

import (
	"errors"
	"fmt"
	"regexp"
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
