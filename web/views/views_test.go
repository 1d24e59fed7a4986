package views

import (
	"math"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

func TestFormatValue(t *testing.T) {
	cases := []struct {
		v    float64
		unit string
		want string
	}{
		{412, "ms", "412 ms"},
		{30.64, "ms", "30.6 ms"},
		{1569, "ms", "1569 ms"},
		{39333, "ms", "39.3 s"},
		{7.734, "ms", "7.73 ms"},
		{0.25, "s", "0.25 s"},
		{128.6, "tok/s", "129 tok/s"},
		{1234567, "tokens", "1,234,567 tokens"},
		{-12345, "", "-12,345"},
		{12.5, "%", "12.5%"},
		{3, "", "3"},
		{math.NaN(), "ms", "— ms"},
	}
	for _, c := range cases {
		if got := FormatValue(c.v, c.unit); got != c.want {
			t.Errorf("FormatValue(%v, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}

func TestGuessRatio(t *testing.T) {
	g := Guess{Value: 300}
	for _, c := range []struct {
		measured float64
		want     string
	}{{310, "within 10% of your guess"}, {600, "2× your guess"}, {30, "10× below your guess"}, {0, ""}} {
		if got := g.ratio(c.measured); got != c.want {
			t.Errorf("ratio(%v) = %q, want %q", c.measured, got, c.want)
		}
	}
}

func TestNumericColumns(t *testing.T) {
	tab := labs.Table{Columns: []string{"stage", "mean", "p95", "note"}, Rows: [][]string{
		{"guardrail", "93", "1,122 ms", "fast"},
		{"retrieval", "132.5", "—", "3 lookups"},
		{"model", "-4", "12%", "12 s"},
		{"cache", "−2.31 s (−82%)", "$0.000224", "x"},
	}}
	got := numericColumns(tab)
	want := []bool{false, true, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("column %d numeric = %v, want %v", i, got[i], want[i])
		}
	}
	for _, s := range []string{"v1.2", "abc", "1.2.3", "12abc"} {
		if startsWithNumber(s) {
			t.Errorf("startsWithNumber(%q) = true", s)
		}
	}
}
