package practice

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Dimension is what kind of quantity a drill asks for, with the units a
// learner may write it in. Values are kept in the base unit (seconds,
// bytes, tokens per second, a plain count or US dollars).
type Dimension struct {
	Name    string
	Base    string             // unit name for display
	Units   map[string]float64 // lower-case unit → base units per one
	Example string             // a valid answer, shown when one is refused
}

// The dimensions drills ask for.
var (
	Duration = Dimension{Name: "time", Base: "s", Example: "1.2 s or 1200 ms",
		Units: map[string]float64{"s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
			"ms": 1e-3, "msec": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3,
			"us": 1e-6, "µs": 1e-6, "microseconds": 1e-6, "min": 60, "mins": 60, "minute": 60, "minutes": 60}}
	Bytes = Dimension{Name: "memory", Base: "GB", Example: "16 GB or 512 MB",
		Units: map[string]float64{"b": 1, "byte": 1, "bytes": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
			"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}}
	Rate = Dimension{Name: "rate", Base: "tokens/s", Example: "180 tokens/s or 180 tok/s",
		Units: map[string]float64{"tokens/s": 1, "token/s": 1, "tok/s": 1, "tps": 1, "t/s": 1,
			"tokens/sec": 1, "tokens per second": 1, "k tokens/s": 1e3, "ktok/s": 1e3}}
	Tokens = Dimension{Name: "token count", Base: "tokens", Example: "1500 tokens or 1.5k tokens",
		Units: map[string]float64{"tokens": 1, "token": 1, "tok": 1, "k tokens": 1e3, "ktokens": 1e3, "k tok": 1e3, "m tokens": 1e6}}
	Requests = Dimension{Name: "request count", Base: "requests", Example: "40 requests or 40 req",
		Units: map[string]float64{"requests": 1, "request": 1, "req": 1, "reqs": 1, "sequences": 1, "seqs": 1, "users": 1}}
	RequestRate = Dimension{Name: "request rate", Base: "req/s", Example: "12 req/s",
		Units: map[string]float64{"req/s": 1, "requests/s": 1, "rps": 1, "requests per second": 1, "req/min": 1.0 / 60}}
	Dollars = Dimension{Name: "cost", Base: "$", Example: "$0.0004 or 0.04 cents",
		Units: map[string]float64{"$": 1, "usd": 1, "dollars": 1, "dollar": 1, "cents": 0.01, "cent": 0.01, "¢": 0.01}}
)

// MaxAnswerChars bounds an estimate's text.
const MaxAnswerChars = 64

// ErrUnreadable marks an estimate that is not a number with a known unit.
var ErrUnreadable = errors.New("not a number with a unit")

// Parse reads an estimate such as "1.2 s", "1200ms", "1,200 ms" or
// "$0.002" and returns it in the dimension's base unit. The error's text
// is meant for the learner: it names what was wrong and gives an example.
func (d Dimension) Parse(input string) (float64, error) {
	s := strings.TrimSpace(input)
	if len([]rune(s)) > MaxAnswerChars {
		return 0, fmt.Errorf("%w: keep the answer under %d characters, for example %s", ErrUnreadable, MaxAnswerChars, d.Example)
	}
	dollar := strings.HasPrefix(s, "$")
	if dollar {
		s = strings.TrimSpace(s[1:])
	}
	num, rest := splitNumber(s)
	if num == "" {
		return 0, fmt.Errorf("%w: start with a number, for example %s", ErrUnreadable, d.Example)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		return 0, fmt.Errorf("%w: %q is not a number we can read; try %s", ErrUnreadable, truncate(num, 20), d.Example)
	}
	unit := strings.Join(strings.Fields(strings.ToLower(rest)), " ")
	if dollar {
		if unit != "" || d.Name != Dollars.Name {
			return 0, fmt.Errorf("%w: a dollar sign does not fit a %s; write it like %s", ErrUnreadable, d.Name, d.Example)
		}
		unit = "$"
	}
	if unit == "" {
		return 0, fmt.Errorf("%w: add a unit after the number, for example %s", ErrUnreadable, d.Example)
	}
	f, ok := d.Units[unit]
	if !ok {
		return 0, fmt.Errorf("%w: %q is not a unit of %s; write it like %s", ErrUnreadable, truncate(rest, 20), d.Name, d.Example)
	}
	return v * f, nil
}

// splitNumber cuts the leading number off s. Commas between digits are
// thousands separators ("1,200"); an exponent ("1.2e3") is allowed.
func splitNumber(s string) (num, rest string) {
	var b strings.Builder
	i, digits := 0, 0
	for i < len(s) {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			b.WriteByte(c)
			digits++
		case c == '.':
			b.WriteByte(c)
		case c == ',' && digits > 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			// a thousands separator: drop it
		case (c == 'e' || c == 'E') && digits > 0 && i+1 < len(s) && (isDigit(s[i+1]) || (s[i+1] == '-' || s[i+1] == '+') && i+2 < len(s) && isDigit(s[i+2])):
			b.WriteByte(c)
			b.WriteByte(s[i+1])
			i++
		default:
			if digits == 0 {
				return "", s
			}
			return b.String(), strings.TrimLeftFunc(s[i:], unicode.IsSpace)
		}
		i++
	}
	if digits == 0 {
		return "", s
	}
	return b.String(), ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
