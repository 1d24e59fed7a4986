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
		{1569, "ms", "1,569 ms"},
		{39333, "ms", "39.3 s"},
		{7.734, "ms", "7.73 ms"},
		{0.25, "s", "0.25 s"},
		{128.6, "tok/s", "129 tok/s"},
		{1234567, "tokens", "1,234,567 tokens"},
		{-12345, "", "-12,345"},
		{12.5, "%", "12.5%"},
		{3, "", "3"},
		{math.NaN(), "ms", "— ms"},
		{1, "tokens", "1 token"},
		{1, "requests", "1 request"},
		{2, "tokens", "2 tokens"},
		{0, "tokens", "0 tokens"},
		{1, "ms", "1 ms"},
		{0, "$", "$0"},
		{12.5, "$", "$12.5"},
		{-3, "$", "-$3"},
	}
	for _, c := range cases {
		if got := FormatValue(c.v, c.unit); got != c.want {
			t.Errorf("FormatValue(%v, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}

func TestGuessRatio(t *testing.T) {
	for _, c := range []struct {
		guess, measured float64
		unit            string
		want            string
	}{
		{300, 310, "ms", "within 10% of your guess"},
		{300, 600, "ms", "2× your guess"},
		{300, 30, "ms", "10× below your guess"},
		{300, 0, "ms", "300 ms less than your guess"},
		// 0 is a guess, and often the right one.
		{0, 0, "tokens", "exactly your guess"},
		{0, 15, "tokens", "15 tokens more than your guess"},
	} {
		g := Guess{Value: c.guess, Unit: c.unit}
		if got := g.ratio(c.measured); got != c.want {
			t.Errorf("guess %v, ratio(%v) = %q, want %q", c.guess, c.measured, got, c.want)
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
	tab.Rows[1][3] = "three lookups, each under a second on this desk"
	tab.Rows[2][0] = "the model, writing its whole answer"
	wantLong := []bool{true, false, false, true}
	for i, long := range longTextColumns(tab, got) {
		if long != wantLong[i] {
			t.Errorf("column %d long text = %v, want %v", i, long, wantLong[i])
		}
	}
	for _, s := range []string{"v1.2", "abc", "1.2.3", "12abc"} {
		if startsWithNumber(s) {
			t.Errorf("startsWithNumber(%q) = true", s)
		}
	}
}

// TestStatRowHasOneUnit: a row of stat cards shows its times of a second
// or more in one unit, seconds as soon as any reaches ten seconds; times
// under a second stay in milliseconds.
func TestStatRowHasOneUnit(t *testing.T) {
	tests := []struct {
		name string
		row  []labs.Stat
		want []string
	}{
		{"all under ten seconds stay in ms", []labs.Stat{{Value: 5592.7, Unit: "ms"}, {Value: 9000, Unit: "ms"}},
			[]string{"5,593 ms", "9,000 ms"}},
		{"one over ten seconds moves the row to s", []labs.Stat{{Value: 5592.7, Unit: "ms"}, {Value: 11300, Unit: "ms"}, {Value: 26.2, Unit: "ms"}, {Value: 1, Unit: "tokens"}},
			[]string{"5.59 s", "11.3 s", "26.2 ms", "1 token"}},
		{"a time per token stays in ms beside seconds", []labs.Stat{{Value: 10927.8, Unit: "ms"}, {Value: 7.84, Unit: "ms"}, {Value: 999.6, Unit: "ms"}},
			[]string{"10.9 s", "7.84 ms", "1 s"}},
	}
	for _, tc := range tests {
		for i, s := range tc.row {
			if got := statNum(s, tc.row) + statUnit(s, tc.row); got != tc.want[i] {
				t.Errorf("%s: stat %d shows %q, want %q", tc.name, i, got, tc.want[i])
			}
		}
	}
}

// FormatInRow gives a run list or comparison row one unit for its times
// of a second or more.
func TestFormatInRow(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		unit string
		row  []float64
		want string
	}{
		{5593, "ms", []float64{5593, 12800}, "5.59 s"},
		{7207, "ms", []float64{5593, 12800}, "7.21 s"},
		{8, "ms", []float64{8, 12800}, "8 ms"},
		{5593, "ms", []float64{5593, 9000}, "5,593 ms"},
		{32, "requests", []float64{32, 64}, "32 requests"},
	} {
		if got := FormatInRow(tc.v, tc.unit, tc.row...); got != tc.want {
			t.Errorf("FormatInRow(%v %s in %v) = %q, want %q", tc.v, tc.unit, tc.row, got, tc.want)
		}
	}
}

func TestFidelityNoteSentence(t *testing.T) {
	for _, c := range []struct {
		within []string
		want   string
	}{
		{nil, "On the bundled engine, this lab's figures are modelled, not measured on a GPU."},
		{[]string{"3% on TPOT"}, "On the bundled engine, this lab's figures are modelled. On published vLLM benchmarks this engine is typically within 3% on TPOT."},
		{[]string{"1% on a", "2% on b", "3% on c"}, "On the bundled engine, this lab's figures are modelled. On published vLLM benchmarks this engine is typically within 1% on a, 2% on b and 3% on c."},
	} {
		if got := (FidelityNote{Within: c.within}).Sentence(); got != c.want {
			t.Errorf("Sentence(%v) = %q, want %q", c.within, got, c.want)
		}
	}
}
