package views

import (
	"math"
	"testing"
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
