package charts

import (
	"math"
	"testing"
)

func TestTickLabels(t *testing.T) {
	tests := []struct {
		name   string
		unit   string
		maxAbs float64
		v      float64
		step   float64
		want   string
	}{
		{"ms stays ms below a second", "ms", 500, 350, 50, "350 ms"},
		{"ms becomes s", "ms", 6000, 2500, 500, "2.5 s"},
		{"whole seconds", "ms", 6000, 3000, 1000, "3 s"},
		{"zero on a seconds axis", "ms", 6000, 0, 1000, "0 s"},
		{"s below a second shows ms", "s", 0.8, 0.25, 0.05, "250 ms"},
		{"fractional ms", "ms", 2, 0.5, 0.5, "0.5 ms"},
		{"compact thousands", "tok/s", 2500, 1200, 200, "1.2k"},
		{"compact with step", "tok/s", 2500, 1250, 250, "1.25k"},
		{"under a thousand", "tokens", 800, 500, 100, "500"},
		{"millions", "", 2e6, 1.5e6, 5e5, "1.5M"},
		{"percent", "%", 100, 25, 25, "25%"},
		{"small steps", "", 1, 0.6000000000000001, 0.2, "0.6"},
		{"negative", "ms", 40, -20, 20, "-20 ms"},
		{"negative zero", "", 1, math.Copysign(0, -1), 0.2, "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newNumFmt(tt.unit, tt.maxAbs).tick(tt.v, tt.step); got != tt.want {
				t.Errorf("tick = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFormatValue(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{412, "ms", "412 ms"},
		{41.26, "ms", "41.3 ms"},
		{5200, "ms", "5.2 s"},
		{1234, "ms", "1.23 s"},
		{0.4, "s", "400 ms"},
		{1234, "tok/s", "1.23k tok/s"},
		{350, "tok/s", "350 tok/s"},
		{12, "", "12"},
		{0, "ms", "0 ms"},
		{-20, "ms", "-20 ms"},
		{99.5, "%", "99.5%"},
		{math.NaN(), "ms", "–"},
		{math.Inf(1), "", "–"},
	}
	for _, tt := range tests {
		if got := formatValue(tt.v, tt.unit); got != tt.want {
			t.Errorf("formatValue(%v, %q) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}

func TestAxisTitle(t *testing.T) {
	tests := []struct {
		label, unit string
		maxAbs      float64
		want        string
	}{
		{"Time", "ms", 500, "Time"}, // ticks carry the unit
		{"Throughput", "tok/s", 10, "Throughput (tok/s)"},
		{"", "tokens", 10, "tokens"},
		{"Tokens", "tokens", 10, "Tokens"},
		{"Rate (tok/s)", "tok/s", 10, "Rate (tok/s)"},
		{"Share", "%", 10, "Share"},
	}
	for _, tt := range tests {
		if got := axisTitle(tt.label, newNumFmt(tt.unit, tt.maxAbs)); got != tt.want {
			t.Errorf("axisTitle(%q, %q) = %q, want %q", tt.label, tt.unit, got, tt.want)
		}
	}
}

func TestMarkText(t *testing.T) {
	tests := []struct {
		label string
		at    float64
		unit  string
		want  string
	}{
		{"first word", 412, "ms", "first word 412 ms"},
		{"p95", 632, "ms", "p95 632 ms"},
		{"budget 800ms", 800, "ms", "budget 800ms"},
		{"first word at 412 ms", 412, "ms", "first word at 412 ms"},
		{"", 2500, "ms", "2.5 s"},
	}
	for _, tt := range tests {
		if got := markText(tt.label, tt.at, tt.unit); got != tt.want {
			t.Errorf("markText(%q) = %q, want %q", tt.label, got, tt.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	if got := truncate("short", 100, 11); got != "short" {
		t.Errorf("truncate kept = %q", got)
	}
	long := "a very long series name that cannot fit"
	got := truncate(long, 60, 11)
	if textWidth(got, 11) > 60 || got[len(got)-len("…"):] != "…" {
		t.Errorf("truncate(%q) = %q: too wide or no ellipsis", long, got)
	}
	if got := truncate(long, 1, 11); got != "…" {
		t.Errorf("truncate to nothing = %q, want …", got)
	}
}
