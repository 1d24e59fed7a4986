package streaming

import (
	"fmt"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/lessons"
)

// The time-to-first-token lesson reckons with three quarters of a word a
// token, then says that the lab's support answers run nearer 0.9 and what
// its 1,000-token preset shows for that: the words and the reading time
// of the "Long answer on an L4" run.
func TestLessonQuotesTheLabsWordsPerToken(t *testing.T) {
	long := labtest.PresetWith(t, labtest.Inert(t, define), "Long answer on an L4")
	onPool := func(pool *labs.Engines) labs.Lab { return mustNew(t, Config{Engines: pool, Tick: -1}) }
	final := labtest.FinalFrame(t, onPool, long(nil))
	reading := labtest.StatOf(t, final, statReading)
	var words int
	if _, err := fmt.Sscanf(reading.Note, "%d words", &words); err != nil {
		t.Fatalf("reading time note %q: %v", reading.Note, err)
	}
	perToken := float64(words) / 1000
	t.Logf("%d words for 1,000 tokens (%.2f a token), %.0f s of reading", words, perToken, reading.Value/1000)
	if perToken < 0.85 || perToken > 0.95 {
		t.Errorf("the lab writes %.2f words a token; the lesson says nearer 0.9", perToken)
	}
	lesson, ok := lessons.Get("time-to-first-token")
	if !ok {
		t.Fatal("no time-to-first-token lesson")
	}
	for _, quote := range []string{
		fmt.Sprintf("comes to %s words", labs.Thousands(words)),
		fmt.Sprintf("about %d seconds of reading", roundTo(int(reading.Value/1000+0.5), 10)),
	} {
		if !strings.Contains(lesson.HTML, quote) {
			t.Errorf("the lesson should quote the run: %q", quote)
		}
	}
}

// roundTo rounds n to the nearest multiple of step.
func roundTo(n, step int) int { return (n + step/2) / step * step }
