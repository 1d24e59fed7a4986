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

// Parse reads an estimate such as "1.2 s", "1200ms", "1,200 ms", "7,5 ms"
// or "$0.002" and returns it in the dimension's base unit. The error's
// text is meant for the learner: it names what was wrong and gives an
// example.
func (d Dimension) Parse(input string) (float64, error) {
	s := strings.TrimSpace(input)
	if len([]rune(s)) > MaxAnswerChars {
		return 0, fmt.Errorf("%w: keep the answer under %d characters, for example %s", ErrUnreadable, MaxAnswerChars, d.Example)
	}
	if negative(s) {
		return 0, fmt.Errorf("%w: the %s cannot be negative; write it like %s", ErrUnreadable, d.Name, d.Example)
	}
	dollar := strings.HasPrefix(s, "$")
	if dollar {
		s = strings.TrimSpace(s[1:])
	}
	num, rest, err := splitNumber(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %w, for example %s", ErrUnreadable, err, d.Example)
	}
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

// ReadAs is how an answer was read, v in the dimension's base unit, for
// showing beside the learner's own text; "" when the two already read the
// same, so "7,5 ms" shows "7.5 ms" but "7.5 ms" shows nothing more.
func (d Dimension) ReadAs(answer string, v float64) string {
	read := formatIn(d, v)
	if squashAll(read) == squashAll(answer) {
		return ""
	}
	return read
}

// squashAll lower-cases s and drops all white space: "7.5ms" and "7.5 MS"
// say the same.
func squashAll(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), "")
}

// negative reports a leading minus sign (ASCII or typographic) before a
// number, with or without a dollar sign: "-5 ms", "−5 ms", "-$3", "$-3".
func negative(s string) bool {
	s = strings.TrimSpace(strings.TrimPrefix(s, "$"))
	for _, minus := range []string{"-", "−"} {
		if rest, ok := strings.CutPrefix(s, minus); ok {
			rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "$"))
			return rest != "" && (isDigit(rest[0]) || rest[0] == '.')
		}
	}
	return false
}

// splitNumber cuts the leading number off s and returns it in Go's
// syntax; an exponent ("1.2e3") is allowed. Commas are read the way a
// reader would: a comma before exactly three digits groups thousands
// ("1,200", "12,345,678"); a single comma before any other count of digits,
// or after a lone 0, is a decimal comma ("7,5", "0,250"). Anything else
// ("1,2,3", "1.200,5") is refused, since guessing could grade a number the
// learner never meant.
func splitNumber(s string) (num, rest string, err error) {
	end := mantissaEnd(s)
	mantissa := s[:end]
	if !strings.ContainsFunc(mantissa, func(r rune) bool { return r >= '0' && r <= '9' }) {
		return "", s, nil
	}
	if mantissa, err = ungroup(mantissa); err != nil {
		return "", s, err
	}
	num = mantissa
	if e := exponentLen(s[end:]); e > 0 {
		num += s[end : end+e]
		end += e
	}
	return num, strings.TrimLeftFunc(s[end:], unicode.IsSpace), nil
}

// mantissaEnd is where the digits, points and digit-flanked commas at
// the start of s end.
func mantissaEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		comma := c == ',' && i > 0 && isDigit(s[i-1]) && i+1 < len(s) && isDigit(s[i+1])
		if !isDigit(c) && c != '.' && !comma {
			return i
		}
	}
	return len(s)
}

// ungroup turns a number's commas into Go syntax (see splitNumber).
func ungroup(m string) (string, error) {
	if !strings.Contains(m, ",") {
		return m, nil
	}
	intPart, frac, hasPoint := strings.Cut(m, ".")
	if strings.Contains(frac, ",") {
		return "", ambiguous(m)
	}
	groups := strings.Split(intPart, ",")
	thousands := len(groups[0]) <= 3 && groups[0] != "0"
	for _, g := range groups[1:] {
		thousands = thousands && len(g) == 3
	}
	switch {
	case thousands && hasPoint:
		return strings.Join(groups, "") + "." + frac, nil
	case thousands:
		return strings.Join(groups, ""), nil
	case len(groups) == 2 && !hasPoint:
		return groups[0] + "." + groups[1], nil
	}
	return "", ambiguous(m)
}

func ambiguous(m string) error {
	return fmt.Errorf("%q could be read two ways: write decimals with a point and leave out the thousands commas", truncate(m, 20))
}

// exponentLen is the length of an exponent ("e3", "E-4") at the start of
// s, or 0.
func exponentLen(s string) int {
	if len(s) < 2 || s[0] != 'e' && s[0] != 'E' {
		return 0
	}
	i := 1
	if s[i] == '-' || s[i] == '+' {
		i++
	}
	n := i
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n == i {
		return 0
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
