package practice

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		dim  Dimension
		in   string
		want float64
	}{
		{Duration, "1.2 s", 1.2}, {Duration, "1200ms", 1.2}, {Duration, "1,200 ms", 1.2}, {Duration, " 1.2e3 ms ", 1.2},
		{Duration, "2 minutes", 120}, {Duration, ".5 s", 0.5}, {Duration, "800 MS", 0.8},
		{Bytes, "16 GB", 16e9}, {Bytes, "1 GiB", 1 << 30}, {Bytes, "128 KB", 128e3},
		{Rate, "180 tok/s", 180}, {Rate, "1.5 k tokens/s", 1500},
		{Tokens, "1,500 tokens", 1500}, {Tokens, "1.5k tokens", 1500},
		{Requests, "40 req", 40}, {RequestRate, "12 req/s", 12},
		{Dollars, "$0.002", 0.002}, {Dollars, "0.2 cents", 0.002}, {Dollars, "0.002 USD", 0.002},
		// A comma before exactly three digits groups thousands; any other
		// single comma is a decimal comma, as much of Europe writes it.
		{Duration, "7,5 ms", 0.0075}, {Duration, "7,50 ms", 0.0075}, {Duration, "0,250 s", 0.25},
		{Duration, "1234,5 ms", 1.2345}, {Duration, "12,345,678 us", 12.345678}, {Duration, "1,200.5 ms", 1.2005},
		{Rate, "1,5k tokens/s", 1500}, {Duration, "7,5e2 ms", 0.75}, {Dollars, "$0,002", 0.002},
		{Duration, "0 ms", 0},
	} {
		got, err := c.dim.Parse(c.in)
		if err != nil || math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("%s.Parse(%q) = %g, %v; want %g", c.dim.Name, c.in, got, err, c.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, c := range []struct {
		dim      Dimension
		in, says string
	}{
		{Duration, "fast", "start with a number"},
		{Duration, "", "start with a number"},
		{Duration, "1200", "add a unit"},
		{Duration, "12 GB", "not a unit of time"},
		{Bytes, "$3", "dollar sign"},
		{Duration, "-3 s", "the time cannot be negative"},
		{Duration, "-5 ms", "the time cannot be negative"},
		{Duration, "−5 ms", "the time cannot be negative"},
		{Duration, "- .5 s", "the time cannot be negative"},
		{Dollars, "-$3", "the cost cannot be negative"},
		{Dollars, "$-3", "the cost cannot be negative"},
		{Duration, "-fast", "start with a number"},
		{Duration, "1,2,3 ms", "could be read two ways"},
		{Duration, "1.200,5 ms", "could be read two ways"},
		{Duration, "1,20.5 ms", "could be read two ways"},
		{Duration, "1e999 s", "not a number"},
		{Duration, strings.Repeat("9", 80) + " s", "under 64"},
	} {
		_, err := c.dim.Parse(c.in)
		if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), c.dim.Example) {
			t.Errorf("%s.Parse(%q) error %v; want ErrUnreadable saying %q with the example", c.dim.Name, c.in, err, c.says)
		}
	}
}

func TestReadAs(t *testing.T) {
	for _, c := range []struct {
		dim      Dimension
		in, want string
	}{
		{Duration, "7,5 ms", "7.5 ms"},
		{Duration, "7.5 ms", ""},
		{Duration, "7.5MS", ""},
		{Duration, "0.0075 s", "7.5 ms"},
		{Duration, "1,200 ms", "1.2 s"},
		{Tokens, "1,500 tokens", ""},
		{Tokens, "1,5k tokens", "1,500 tokens"},
	} {
		v, err := c.dim.Parse(c.in)
		if err != nil {
			t.Fatalf("%s.Parse(%q): %v", c.dim.Name, c.in, err)
		}
		if got := c.dim.ReadAs(c.in, v); got != c.want {
			t.Errorf("%s.ReadAs(%q) = %q, want %q", c.dim.Name, c.in, got, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1.2 s", "1200ms", "1,200 ms", "fast", "$0.1", "1e-3 s", "1,,2 s", "..", "1e", "9e+", "١٢ s", "\xff",
		"7,5 ms", "0,250 s", "1.200,5 ms", "1,2,3 ms", "-5 ms", "−5 ms", "$-3", "1,200.5 ms", "7,5e2 ms", ",5 s", "5, ms"} {
		f.Add(s)
	}
	dims := []Dimension{Duration, Bytes, Rate, Tokens, Requests, RequestRate, Dollars}
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range dims {
			v, err := d.Parse(s)
			if err == nil && (v < 0 || math.IsNaN(v) || math.IsInf(v, 0)) {
				t.Fatalf("%s.Parse(%q) = %v", d.Name, s, v)
			}
			if err != nil && !errors.Is(err, ErrUnreadable) {
				t.Fatalf("%s.Parse(%q): unexpected error kind %v", d.Name, s, err)
			}
			// What the page shows as read must read back as the value
			// graded (to its three significant figures).
			if shown := formatIn(d, v); err == nil && v > 0 && len([]rune(shown)) <= MaxAnswerChars {
				back, err := d.Parse(shown)
				if err != nil || math.Abs(back-v) > 0.006*v {
					t.Fatalf("%s.Parse(%q) = %g, shown as %q, which reads back as %g, %v", d.Name, s, v, shown, back, err)
				}
			}
		}
	})
}
