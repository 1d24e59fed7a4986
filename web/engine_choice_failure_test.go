package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/labs"
)

// A failed run on the server reads as one sentence in the learner's
// terms, whatever the client wrapped around the cause.
func TestServerFailureSentences(t *testing.T) {
	u := &labs.EngineChoice{Label: "vLLM at http://gpu:8000/v1"}
	cases := []struct {
		err  error
		want string
	}{
		{&upstream.ServerError{Status: 404, Message: "The model `x` does not exist."}, "That server refused the run: The model `x` does not exist."},
		{fmt.Errorf("upstream http://gpu:8000/v1: %w", &upstream.ShortAnswer{Wrote: 10, Asked: 60}), "That server wrote 10 of the 60 tokens"},
		{fmt.Errorf("upstream http://gpu:8000/v1: %w", upstream.ErrIncomplete), "could not be reached or broke off the answer"},
	}
	for _, c := range cases {
		got := serverFailure(u, c.err)
		if !strings.Contains(got, c.want) || strings.Contains(got, "..") {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
		if strings.Contains(got, "upstream http") || strings.Contains(got, "*upstream") {
			t.Errorf("%q shows the client's internals", got)
		}
	}
}
