package labs

import (
	"math"
	"testing"
	"time"
)

func TestFormatMS(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0, "0 ms"}, {412.4, "412 ms"}, {999.4, "999 ms"}, {1000, "1.00 s"}, {2412, "2.41 s"}} {
		if got := FormatMS(tc.v); got != tc.want {
			t.Errorf("FormatMS(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
	if got := Millis(1500 * time.Microsecond); got != 1.5 {
		t.Errorf("Millis(1.5ms) = %v", got)
	}
}

// Number, Whole and Fixed share one grouping; Number picks the decimals
// by size, Fixed is given them (a knob's step).
func TestNumberWholeFixed(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Number(16000), "16,000"}, {Number(1234.56), "1,235"}, {Number(-98765.4), "-98,765"},
		{Number(29.84), "29.8"}, {Number(12.04), "12"}, {Number(2.5), "2.5"}, {Number(0.0125), "0.013"},
		{Number(-0.0001), "0"}, {Number(math.NaN()), "—"}, {Number(2e15), "2,000,000,000,000,000"},
		{Whole(999.5), "1,000"}, {Whole(-0.3), "0"}, {Whole(math.Inf(-1)), "—"},
		{Fixed(16000, 0), "16,000"}, {Fixed(12345.25, 2), "12,345.25"}, {Fixed(2.5, 2), "2.5"},
		{Fixed(3.1, 1), "3.1"}, {Fixed(1.05, 2), "1.05"}, {Fixed(-1500.5, 1), "-1,500.5"}, {Fixed(7, -1), "7"},
		{Thousands(0), "0"}, {Thousands(math.MinInt64), "-9,223,372,036,854,775,808"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestNiceCeil(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{0, 1}, {-3, 1}, {math.NaN(), 1}, {math.Inf(1), 1},
		{1, 1}, {1.1, 1.2}, {7, 8}, {8.5, 10}, {0.013, 0.015}, {2400, 2500}, {1000, 1000},
	} {
		if got := NiceCeil(tc.x); math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("NiceCeil(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}

// NiceStep serves histogram bins (the pipeline labs', the workshop
// board's guesses) and chart ticks: the cases each caller relied on.
func TestNiceStep(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{0, 1}, {-3, 1}, {math.NaN(), 1}, {math.Inf(1), 1}, // no usable width: 1
		{3, 5}, {7, 10}, {120, 200}, {0.03, 0.05}, {1000, 1000}, // pipeline histograms
		{0.7, 1}, {13, 20}, {130, 200}, {420, 500}, // the board's guesses
		{82.4, 100}, {0.2, 0.2}, {0.3 / 3, 0.1}, {55.0 / 4, 20}, // chart ticks; 0.3/3 is 0.0999…
		{2.0000000001, 2}, {2.01, 5},
	} {
		if got := NiceStep(tc.x); math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("NiceStep(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}

func TestTimeFormatOneUnitPerGroup(t *testing.T) {
	tests := []struct {
		name  string
		group []float64
		want  []string
	}{
		{"all under a second", []float64{26.2, 412.4, 999.4}, []string{"26 ms", "412 ms", "999 ms"}},
		{"one over a second", []float64{231, 8228.5}, []string{"0.23 s", "8.23 s"}},
		{"tens of seconds", []float64{5592.7, 10927.8}, []string{"5.59 s", "10.9 s"}},
		{"empty group", nil, nil},
	}
	for _, tc := range tests {
		f := TimeFormatFor(tc.group...)
		for i, v := range tc.group {
			if got := f.Format(v); got != tc.want[i] {
				t.Errorf("%s: Format(%v) = %q, want %q", tc.name, v, got, tc.want[i])
			}
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{{0, "token", "0 tokens"}, {1, "token", "1 token"}, {2, "request", "2 requests"}, {1, "unsafe token", "1 unsafe token"},
		{1000, "token", "1,000 tokens"}, {-1200, "token", "-1,200 tokens"}} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

func TestAxisEnd(t *testing.T) {
	for _, tc := range []struct{ end, t, headroom, want float64 }{
		{1000, 400, 1.25, 1000}, // inside: unchanged
		{1000, 1000, 1.25, 1000},
		{1000, 1100, 1.25, 1500}, // past the end: 1375 rounded up
		{0, 10, 1.15, 12},
	} {
		if got := AxisEnd(tc.end, tc.t, tc.headroom); got != tc.want {
			t.Errorf("AxisEnd(%v, %v, %v) = %v, want %v", tc.end, tc.t, tc.headroom, got, tc.want)
		}
	}
}

func TestFactorIsPreciseEnoughForItsProduct(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		n    int
		want string
	}{
		{12.477, 299, "12.48"}, {12.477, 2, "12.5"}, {7.7, 299, "7.70"}, {0.0423, 1000, "0.042"}, {5.65, 299, "5.65"}, {12.4773, 1500, "12.477"},
	} {
		if got := Factor(tc.x, tc.n); got != tc.want {
			t.Errorf("Factor(%v, %d) = %q, want %q", tc.x, tc.n, got, tc.want)
		}
	}
}

// A status line's milliseconds read as the stat card beside them does.
func TestFormatMSMatchesTheCards(t *testing.T) {
	for v, want := range map[float64]string{29.8: "29.8 ms", 17.84: "17.8 ms", 607.4: "607 ms", 8: "8 ms", 0.42: "0.42 ms", 2413: "2.41 s"} {
		if got := FormatMS(v); got != want {
			t.Errorf("FormatMS(%v) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{4564: "4,564", 2914.2: "2,914", 12.34: "12.3", 7.705: "7.71", 0.0423: "0.042", -1234: "-1,234"} {
		if got := Number(v); got != want {
			t.Errorf("Number(%v) = %q, want %q", v, got, want)
		}
	}
}
