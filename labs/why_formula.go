package labs

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Term is one named part of a formula, in the formula's unit.
type Term struct {
	Name  string
	Value float64
}

// Formula is the arithmetic behind one headline figure, filled in with a
// run's own measured parts. Every lab builds its "why" panels from it, so
// each panel reads the same way: the sum or product with this run's
// numbers, what it comes to, the part that dominated and, when the run
// measured something else, what the rest is.
type Formula struct {
	// Expr is the formula with the run's numbers, without its result:
	// "guardrail 80 + slowest lookup 120 + model first token 600".
	// Empty means Sum writes it from Parts.
	Expr string
	// Result is what Expr comes to, in Unit.
	Result float64
	Unit   string
	// Parts are Result's additive parts; the largest is named as the one
	// that dominated, with its share.
	Parts []Term
	// Lead says what dominated when the formula is not a sum (a product,
	// a ratio); it replaces the share sentence.
	Lead string
	// Remainder names what the measured figure holds beyond Result (a
	// queue, a network hop): shown with the gap when they differ.
	Remainder string
	// Before and After are sentences around the arithmetic: what the
	// figure is, and a comparison (a deadline, a budget).
	Before, After string
}

// Sum is a Formula that adds parts, written "a 80 + b 120 + c 600".
// Parts of zero are left out.
func Sum(unit string, parts ...Term) Formula { return sum(unit, false, parts) }

// Tally is a Sum that keeps the parts of zero, "overall timeout 0 +
// deadline 3" or "steps 7.99 + time between steps 0", so the learner
// sees which causes did not happen as well as which did.
func Tally(unit string, parts ...Term) Formula { return sum(unit, true, parts) }

func sum(unit string, keepZero bool, parts []Term) Formula {
	f := Formula{Unit: unit}
	var expr []string
	for _, p := range parts {
		if p.Value == 0 && !keepZero {
			continue
		}
		f.Parts = append(f.Parts, p)
		f.Result += p.Value
		expr = append(expr, p.Name+" "+Figure(p.Value))
	}
	f.Expr = strings.Join(expr, " + ")
	if f.Expr == "" {
		f.Expr = "nothing"
	}
	return f
}

// Text writes the formula for a stat that measured measured: the result
// is the one "≈" figure in the text, so a test can hold it to the stat.
func (f Formula) Text(measured float64) string {
	var b strings.Builder
	if f.Before != "" {
		b.WriteString(f.Before + " ")
	}
	fmt.Fprintf(&b, "%s ≈ %s.", f.Expr, withUnit(f.Result, f.Unit))
	if lead := f.lead(); lead != "" {
		b.WriteString(" " + lead + ".")
	}
	// The gap is taken between the figures as shown, so the sentence's
	// three numbers add up as a reader checks them.
	switch gap := shown(measured) - shown(f.Result); {
	case f.Remainder == "" || math.Abs(gap) <= max(0.02*math.Abs(measured), 0.5):
	case gap > 0:
		fmt.Fprintf(&b, " The run measured %s; the other %s is %s.", withUnit(measured, f.Unit), withUnit(gap, f.Unit), f.Remainder)
	default: // the terms overshoot: there is no negative "other" to name
		fmt.Fprintf(&b, " The run measured %s, %s less than the terms add up to: the difference is %s.",
			withUnit(measured, f.Unit), withUnit(-gap, f.Unit), f.Remainder)
	}
	if after := strings.TrimSpace(f.After); after != "" {
		b.WriteString(" " + after)
	}
	return b.String()
}

// lead names the largest part and its share of the result.
func (f Formula) lead() string {
	if f.Lead != "" || len(f.Parts) < 2 || f.Result <= 0 {
		return f.Lead
	}
	top := f.Parts[0]
	for _, p := range f.Parts[1:] {
		if p.Value > top.Value {
			top = p
		}
	}
	return fmt.Sprintf("The largest part is %s: %.0f%% of it", top.Name, 100*top.Value/f.Result)
}

// shown is x as Figure writes it, read back: the value a reader sees.
func shown(x float64) float64 {
	v, err := strconv.ParseFloat(strings.ReplaceAll(Figure(x), ",", ""), 64)
	if err != nil {
		return x
	}
	return v
}

// Explain sets the Why of each stat whose key has a formula.
func Explain(stats []Stat, formulas map[string]Formula) {
	for i, st := range stats {
		if f, ok := formulas[st.Key]; ok {
			stats[i].Why = f.Text(st.Value)
		}
	}
}

// Factor writes x, a figure a formula multiplies by n ("299 more tokens
// × 12.48 ms"), with as many decimals as the product needs to come out
// within about a unit of n × x: Figure's rounding (12.5) would leave a
// reader's product 15 ms off the sum printed after it.
func Factor(x float64, n int) string {
	d := 0
	for d < 4 && float64(n)*0.5*math.Pow(10, -float64(d)) > 1.5 {
		d++
	}
	fig := Figure(x)
	if _, frac, ok := strings.Cut(fig, "."); ok && len(frac) >= d {
		return fig
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

// Figure writes a measured part to the precision a learner can use:
// "4,565", "80", "13.6", "7.71", "0.042".
func Figure(x float64) string {
	a := math.Abs(x)
	switch {
	case x == math.Trunc(x) && a < 1e15:
		return Thousands(int(x))
	case a >= 100:
		return Thousands(int(math.Round(x)))
	case a >= 10:
		return strings.TrimSuffix(strconv.FormatFloat(x, 'f', 1, 64), ".0")
	case a >= 0.1 || a == 0:
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'g', 2, 64)
}

func withUnit(x float64, unit string) string {
	switch unit {
	case "":
		return Figure(x)
	case "$":
		return "$" + Figure(x)
	case "%":
		return Figure(x) + "%"
	case "tokens", "requests", "blocks":
		if x == 1 {
			return "1 " + strings.TrimSuffix(unit, "s")
		}
	}
	return Figure(x) + " " + unit
}
