package stack

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestLessonBufferFigures holds the lesson's partial-buffering paragraph
// to the lab: the bytes a token takes on each side of the gateway, how
// many tokens an 8 KB buffer holds there, and the smaller-buffer preset's
// lumps (4 KB of gateway events, about a second apart). Each quoted figure
// must be in the lesson and within its band of what the lab measures.
func TestLessonBufferFigures(t *testing.T) {
	finals := labtest.PresetFinals(t, labtest.Inert(t, define), runOnVirtualTime)
	laptop, other, small := finals["Works on my laptop"], finals["Fixed, with the other provider"], finals["A smaller proxy buffer"]
	openai, gateway := bytesPerWrite(t, laptop.Tables[0].Title), bytesPerWrite(t, laptop.Tables[1].Title)
	anthropic := bytesPerWrite(t, other.Tables[0].Title)
	const kb = 1024
	labtest.CheckQuotes(t, "streaming-through-the-stack", "", []labtest.Quote{
		{Text: "OpenAI-style chunks take about 160 bytes a token", Got: openai, Lo: 145, Hi: 175},
		{Text: "Anthropic-style events about 120", Got: anthropic, Lo: 110, Hi: 130},
		{Text: "8 KB is some 50 tokens", Got: 8 * kb / openai, Lo: 45, Hi: 55},
		{Text: "own events take about 30 bytes", Got: gateway, Lo: 27, Hi: 33},
		{Text: "holds some 250 tokens", Got: 8 * kb / gateway, Lo: 225, Hi: 275},
		{Text: "lumps of about 130 tokens", Got: 4 * kb / gateway, Lo: 117, Hi: 143},
		{Text: "about a second apart", Got: labtest.Stat(t, small, statLongest), Lo: 850, Hi: 1150},
	})
}

// TestLessonLabClock holds the lesson's paragraph on the lab's own clock:
// with the model alone on an idle GPU, the first token comes after about
// 8 ms and the last after about 2.3 s, and the buffering proxy moves the
// first word from the one to the other. The buffering preset's note says
// 2.3 s as well.
func TestLessonLabClock(t *testing.T) {
	finals := labtest.PresetFinals(t, labtest.Inert(t, define), runOnVirtualTime)
	laptop, buffered := finals["Works on my laptop"], finals["In production behind a buffering proxy"]
	first, last := labtest.Stat(t, laptop, statFirstWord), labtest.Stat(t, laptop, statLastWord)
	held := labtest.Stat(t, buffered, statFirstWord)
	labtest.CheckQuotes(t, "streaming-through-the-stack", "ms", []labtest.Quote{
		{Text: "first token comes after about 8 ms", Got: first, Lo: 6, Hi: 10},
		{Text: "its last after about 2.3 s", Got: last, Lo: 2250, Hi: 2350},
		{Text: "moves its first word from about 8 ms to about 2.3 s", Got: held, Lo: 2250, Hi: 2350},
	})
	for _, p := range labtest.Inert(t, define).Presets() {
		if p.Name == "In production behind a buffering proxy" && !strings.Contains(p.Note, "its 2.3 s of writing") {
			t.Errorf("the buffering preset's note no longer states the 2.3 s the test holds: %q", p.Note)
		}
	}
}
