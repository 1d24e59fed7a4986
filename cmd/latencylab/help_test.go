package main

import (
	"errors"
	"fmt"
	"regexp"
	"testing"
)

// internalName matches a component's name where an error would show it
// ("sim: config: …", "web config: …"); "hardware config: " after a file
// name is the user's own --hardware-config file and fine.
var internalName = regexp.MustCompile(`(: |^)(web )?config: `)

// plainMessage drops the names of the components that refused a value,
// wherever the wrapping put them, and keeps everything else.
func TestPlainMessageDropsComponentNames(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{errors.New(`config: unknown policy "fifo" (valid: sequential, static, continuous)`), `unknown policy "fifo" (valid: sequential, static, continuous)`},
		{errors.New(`web config: addr "bogus": want HOST:PORT`), `addr "bogus": want HOST:PORT`},
		{fmt.Errorf("--upstream-*: %w", errors.New("config: tensor parallelism 3 (valid: 1, 2, 4, 8)")), "--upstream-*: tensor parallelism 3 (valid: 1, 2, 4, 8)"},
		{fmt.Errorf("web config: %w", errors.Join(errors.New("max runs 0: want at least 1"), errors.New("run list size 99: want 1 to 50"))), "max runs 0: want at least 1; run list size 99: want 1 to 50"},
		{errors.New("--to is missing"), "--to is missing"},
	} {
		if got := plainMessage(c.err); got != c.want {
			t.Errorf("plainMessage(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
