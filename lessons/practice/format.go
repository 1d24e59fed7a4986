package practice

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// formatIn writes v (in the dimension's base unit) with a readable unit.
func formatIn(d Dimension, v float64) string {
	switch d.Name {
	case Duration.Name:
		return fmtSecs(v)
	case Bytes.Name:
		return fmtBytes(v)
	case Rate.Name:
		return sig(v) + " tokens/s"
	case Tokens.Name:
		return sig(v) + " tokens"
	case Requests.Name:
		return sig(v) + " requests"
	case RequestRate.Name:
		return sig(v) + " req/s"
	case Dollars.Name:
		return "$" + sig(v)
	}
	return sig(v) + " " + d.Base
}

// sig writes v with three significant figures and thousands separators.
func sig(v float64) string {
	if v == 0 {
		return "0"
	}
	digits := 3 - int(math.Floor(math.Log10(math.Abs(v)))) - 1
	if digits < 0 {
		digits = 0
	}
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return thousands(s)
}

// thousands puts commas into the integer part of a decimal string.
func thousands(s string) string {
	intPart, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimPrefix(intPart, "-")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	out := b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

func fmtSecs(v float64) string {
	if v < 1 {
		return sig(v*1000) + " ms"
	}
	return sig(v) + " s"
}

func fmtDur(d time.Duration) string { return fmtSecs(d.Seconds()) }

func fmtBytes(v float64) string {
	switch {
	case v >= 1e9:
		return sig(v/1e9) + " GB"
	case v >= 1e6:
		return sig(v/1e6) + " MB"
	case v >= 1e3:
		return sig(v/1e3) + " KB"
	}
	return sig(v) + " bytes"
}

func fmtInt(n int) string { return thousands(strconv.Itoa(n)) }

// bytesPerParam mirrors the engine's weight storage for the formula text.
func bytesPerParamText(p engine.Precision) string {
	switch p {
	case engine.FP8:
		return "1 byte"
	case engine.INT4:
		return "about 0.53 bytes"
	}
	return "2 bytes"
}

func given(kv ...string) []Fact {
	out := make([]Fact, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, Fact{kv[i], kv[i+1]})
	}
	return out
}

func stepf(what, format string, args ...any) Step {
	return Step{What: what, Formula: fmt.Sprintf(format, args...)}
}
