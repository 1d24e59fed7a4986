package prefilldecode

import (
	"context"
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// BenchmarkSweep is the virtual-clock part of a default run: 16 single
// requests and the recorded run of the learner's request. It runs before
// the learner's request is sent, so it is time the learner waits.
func BenchmarkSweep(b *testing.B) {
	s, err := parse(b, labtest.Values(nil))
	if err != nil {
		b.Fatal(err)
	}
	j, err := newJob(s, "x", "Session x", 0, s.output)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := runSweep(context.Background(), s, j.req, s.spec.system); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildPrompts is building both customers' prompts and answers
// for the default preset with a fresh session, as every run does.
func BenchmarkBuildPrompts(b *testing.B) {
	s, err := parse(b, labtest.Values(nil))
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		n++
		session, session2 := sessions(uint64(n), "0a1b2c3d", true)
		if _, err := newJob(s, "a", session, 0, s.output); err != nil {
			b.Fatal(err)
		}
		if _, err := newJob(s, "b", session2, 1, secondAnswer); err != nil {
			b.Fatal(err)
		}
	}
}
