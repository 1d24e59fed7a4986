package lessons

import (
	"regexp"
	"strings"
	"testing"
)

// TestCitedLessonsComeFirst: a lesson that borrows another lesson's numbers
// must come after it in the course, or the learner meets the numbers
// before the lesson that explains them.
func TestCitedLessonsComeFirst(t *testing.T) {
	cites := map[string]string{ // phrase in a lesson → the lesson it points to
		"budget lesson":   "latency-budget",
		"batching lesson": "batching",
	}
	for _, l := range All() {
		src := strings.ToLower(source(t, l.Slug))
		for phrase, slug := range cites {
			if !strings.Contains(src, phrase) || l.Slug == slug {
				continue
			}
			cited, ok := Get(slug)
			if !ok {
				t.Fatalf("%s cites %q, and no lesson %q exists", l.Slug, phrase, slug)
			}
			if cited.Order >= l.Order {
				t.Errorf("%s (order %d) uses the %s's numbers, which comes later (order %d)", l.Slug, l.Order, phrase, cited.Order)
			}
		}
	}
}

// TestStaleClaimsStayFixed lists claims that were once wrong, with the
// measured figure that contradicted them, so an edit cannot bring one back.
func TestStaleClaimsStayFixed(t *testing.T) {
	tests := []struct {
		slug, phrase, why string
	}{
		{"prefill-vs-decode", "one to four chunks", "the labs' chunks are about 100 and 55 tokens, not 500"},
		{"prefill-vs-decode", "50–100 ms", "half of peak gives about 105 ms and the lab measures about 100 ms"},
		{"parallel-steps", "11% of an 815", "90 ms is saved from the 905 ms sequential first word"},
		{"batching", "drops to a step or so", "only with free slots: the burst preset's continuous p95 TTFT is about 7 s"},
		{"batching", "static batching understates queueing", "static batching queues more, not less"},
		{"streaming-through-the-stack", "`EventSource` reconnects by itself.", "chat clients POST; a reconnect restarts generation"},
		{"levers", "three of them save money", "the table shows four levers that lower cost"},
		{"streaming-through-the-stack", "about 100 bytes per token", "the stack lab measures about 160 bytes per provider chunk and about 30 per gateway event"},
	}
	for _, tc := range tests {
		if strings.Contains(source(t, tc.slug), tc.phrase) {
			t.Errorf("%s says %q again: %s", tc.slug, tc.phrase, tc.why)
		}
	}
}

// TestFiguresExplained: where a lesson's illustrative figure differs from
// what the labs measure, the lesson must give both and the reason.
func TestFiguresExplained(t *testing.T) {
	tests := []struct {
		slug  string
		wants []string
	}{
		{"prefill-vs-decode", []string{"4.8 ms", "7.8 ms", "72% of peak bandwidth", "1 ms of fixed work"}},
		{"prefill-vs-decode", []string{"52 ms", "60–105 ms", "half of peak", "100 ms"}},
		{"levers", []string{"4.4 s", "4,565 ms", "215 ms", "4,350 ms"}},
		{"latency-budget", []string{"4.4 s", "4,565 ms", "215 ms", "4,350 ms"}},
		{"parallel-steps", []string{"905 ms", "815 ms"}},
		{"batching", []string{"5 ms", "7.8 ms"}},
		{"answering-the-latency-question", []string{"~5 ms/token", "7.8 ms", "72% of peak bandwidth"}},
	}
	for _, tc := range tests {
		src := source(t, tc.slug)
		for _, w := range tc.wants {
			if !strings.Contains(src, w) {
				t.Errorf("%s does not mention %q", tc.slug, w)
			}
		}
	}
}

var numberWords = map[string]int{"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}

// TestLeversCostCount: the sentence after the levers table counts the
// levers that lower cost; the count must match the table's cost column.
func TestLeversCostCount(t *testing.T) {
	src := source(t, "levers")
	rows := regexp.MustCompile(`(?m)^\| ([^|]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$`).FindAllStringSubmatch(src, -1)
	lower := 0
	for _, r := range rows[1:] { // the first row is the header
		if cost := strings.TrimSpace(r[4]); strings.HasSuffix(strings.ToLower(cost), "lower") {
			lower++
		}
	}
	m := regexp.MustCompile(`(\w+) of them \([^)]*\) lower the cost`).FindStringSubmatch(src)
	if m == nil {
		t.Fatal("levers no longer says how many levers lower the cost")
	}
	if numberWords[m[1]] != lower {
		t.Errorf("levers says %s levers lower the cost; its table has %d", m[1], lower)
	}
}
