package views

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/latencylab/latencylab/labs"
)

// FormatValue formats a measured figure with its unit, with precision that
// suits its size ("412 ms", "38.5 tok/s", "0.25 s").
func FormatValue(v float64, unit string) string {
	num, u := SplitValue(v, unit)
	return num + u
}

// SplitValue formats a figure as its number and its unit suffix (with the
// leading space, if any), so the unit can be set smaller. Milliseconds of
// ten seconds or more read better as seconds.
func SplitValue(v float64, unit string) (num, suffix string) {
	if unit == "ms" && math.Abs(v) >= 10000 {
		v, unit = v/1000, "s"
	}
	return splitIn(v, unit)
}

// splitIn formats v in unit as given: a count of one takes the singular
// ("1 token"), and dollars lead ("$12.5").
func splitIn(v float64, unit string) (num, suffix string) {
	num = FormatNumber(v)
	switch unit {
	case "":
		return num, ""
	case "%":
		return num, "%"
	case "$":
		if strings.HasPrefix(num, "-") {
			return "-$" + num[1:], ""
		}
		return "$" + num, ""
	}
	if v == 1 && countNouns[unit] {
		unit = strings.TrimSuffix(unit, "s")
	}
	return num, " " + unit
}

// countNouns are units that count things, so one of them is singular.
var countNouns = map[string]bool{"tokens": true, "requests": true, "chunks": true, "turns": true,
	"passages": true, "calls": true, "steps": true, "sequences": true, "answers": true, "checks": true}

// rowInSeconds reports whether a row of stats shows its milliseconds as
// seconds: when any of them reaches ten seconds, all of them do, so one
// row never has "5593 ms" beside "11.3 s".
func rowInSeconds(stats []labs.Stat) bool {
	for _, s := range stats {
		if s.Unit == "ms" && math.Abs(s.Value) >= 10000 {
			return true
		}
	}
	return false
}

// splitStat formats one stat of a row. In a row in seconds, every time of
// a second or more is given in seconds, so "5593 ms" never sits beside
// "11.3 s"; a time under a second stays in milliseconds ("8 ms", not
// "0.008 s"), as serving dashboards give a time per token.
func splitStat(s labs.Stat, row []labs.Stat) (num, suffix string) {
	if s.Unit == "ms" && math.Abs(s.Value) >= 999.5 && rowInSeconds(row) { // 999.5 shows as "1000 ms"
		return splitIn(s.Value/1000, "s")
	}
	return splitIn(s.Value, s.Unit)
}

// FormatNumber formats a number with at most three significant decimals and
// thousands separators on large values: labs.Number, which statuses use too.
func FormatNumber(v float64) string { return labs.Number(v) }

func itoa(i int) string { return strconv.Itoa(i) }

// FormatPlain formats a number for an HTML attribute (no separators).
func FormatPlain(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func stepOf(k labs.Knob) float64 {
	if k.Step > 0 {
		return k.Step
	}
	return 1
}

func joinComma(s []string) string { return strings.Join(s, ", ") }

func statNum(s labs.Stat, row []labs.Stat) string  { n, _ := splitStat(s, row); return n }
func statUnit(s labs.Stat, row []labs.Stat) string { _, u := splitStat(s, row); return u }

// numericColumns marks the columns whose every non-empty cell starts with a
// number ("412", "1,024 ms", "-3.5%"), so they can be right-aligned.
func numericColumns(t labs.Table) []bool {
	out := make([]bool, len(t.Columns))
	for i := range out {
		seen := false
		out[i] = true
		for _, r := range t.Rows {
			if i >= len(r) || strings.TrimSpace(r[i]) == "" || r[i] == "—" {
				continue
			}
			seen = true
			if !startsWithNumber(r[i]) {
				out[i] = false
				break
			}
		}
		out[i] = out[i] && seen
	}
	return out
}

// columnName is the header of column i, which labels the cell in a card
// on a phone; "" past the headers.
func columnName(t labs.Table, i int) string {
	if i < len(t.Columns) {
		return t.Columns[i]
	}
	return ""
}

// longText is how many characters make a cell long text: a column holding
// one gets a minimum width so it does not wrap a word a line, and the
// short columns beside it keep their natural width (a phone fits them).
const longText = 30

// longTextColumns marks the columns that are not numeric and hold at
// least one long cell.
func longTextColumns(t labs.Table, num []bool) []bool {
	out := make([]bool, len(t.Columns))
	for i := range out {
		if num[i] {
			continue
		}
		for _, r := range t.Rows {
			if i < len(r) && utf8.RuneCountInString(r[i]) >= longText {
				out[i] = true
				break
			}
		}
	}
	return out
}

func startsWithNumber(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "−"), "$") // typographic minus, money
	end := 0
	for end < len(s) && strings.ContainsRune("+-0123456789.,", rune(s[end])) {
		end++
	}
	if end == 0 || (end < len(s) && s[end] != ' ' && s[end] != '%' && !strings.ContainsRune("×xkMGsµm", rune(s[end]))) {
		return false
	}
	_, err := strconv.ParseFloat(strings.ReplaceAll(s[:end], ",", ""), 64)
	return err == nil
}

// FormatInRow formats v as one of the figures in row (a run list or
// comparison row, all in unit) by the stat cards' rule, so a row never
// has "5593 ms" beside "12.8 s".
func FormatInRow(v float64, unit string, row ...float64) string {
	stats := make([]labs.Stat, len(row))
	for i, x := range row {
		stats[i] = labs.Stat{Value: x, Unit: unit}
	}
	num, suffix := splitStat(labs.Stat{Value: v, Unit: unit}, stats)
	return num + suffix
}
