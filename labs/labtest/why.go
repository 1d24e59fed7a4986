package labtest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// approxRe finds the "≈ N ms" an explanation (labs.Why) ends on.
var approxRe = regexp.MustCompile(`≈ ([0-9.,]+) ms`)

// CheckWhy checks a stat's explanation: it names bound ("compute-bound",
// "memory-bound") and its "≈" figure is within 5% of what the run measured.
func CheckWhy(t *testing.T, st labs.Stat, bound string) {
	t.Helper()
	t.Log(st.Why)
	if !strings.Contains(st.Why, bound) {
		t.Errorf("%s: explanation does not say %q: %q", st.Key, bound, st.Why)
	}
	m := approxRe.FindAllStringSubmatch(st.Why, -1)
	if len(m) == 0 {
		t.Fatalf("%s: no ≈ figure in %q", st.Key, st.Why)
	}
	end, err := strconv.ParseFloat(strings.ReplaceAll(m[len(m)-1][1], ",", ""), 64)
	if err != nil {
		t.Fatal(err)
	}
	if d := end - st.Value; d < -0.05*st.Value || d > 0.05*st.Value {
		t.Errorf("%s: the explanation ends at %.2f ms, the run measured %.2f ms", st.Key, end, st.Value)
	}
}

// formulaRe finds the result of a labs.Formula: the one "≈" figure.
var formulaRe = regexp.MustCompile(`≈ \$?(-?[0-9][0-9,]*(?:\.[0-9]+)?)`)

// CheckFormula checks a stat's filled-in formula (labs.Formula): its
// result is within tol (a fraction, 0.05 for 5%) of what the run
// measured, and it names the part that dominated or what the rest is.
func CheckFormula(t *testing.T, st labs.Stat, tol float64) {
	t.Helper()
	t.Logf("%s = %v %s: %s", st.Key, st.Value, st.Unit, st.Why)
	m := formulaRe.FindAllStringSubmatch(st.Why, -1)
	if len(m) != 1 {
		t.Fatalf("%s: want one ≈ figure, found %d in %q", st.Key, len(m), st.Why)
	}
	got, err := strconv.ParseFloat(strings.ReplaceAll(m[0][1], ",", ""), 64)
	if err != nil {
		t.Fatal(err)
	}
	if d := got - st.Value; d < -tol*abs(st.Value)-0.05 || d > tol*abs(st.Value)+0.05 {
		t.Errorf("%s: the formula comes to %.3f %s, the run measured %.3f (tolerance %.0f%%)", st.Key, got, st.Unit, st.Value, 100*tol)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// productRe finds a sum that ends on a product of tokens and a time per
// token: "first token 590 + 299 more tokens × 12.48 ms ≈ 4,342".
var productRe = regexp.MustCompile(`((?:[A-Za-z' ]+ [0-9][0-9,]*(?:\.[0-9]+)? \+ )*)([0-9][0-9,]*) (?:more )?tokens × ([0-9.]+) ms(?: per token)? ≈ ([0-9][0-9,]*(?:\.[0-9]+)?)`)

// termRe finds the figure that ends one term of such a sum.
var termRe = regexp.MustCompile(`([0-9][0-9,]*(?:\.[0-9]+)?) \+ `)

// CheckProducts checks that every "… + N tokens × X ms ≈ R" in why adds up
// as a reader would work it out from the figures shown, within 2 (in
// the result's unit): the time per token must be printed precisely enough
// for N times it.
func CheckProducts(t *testing.T, key, why string) {
	t.Helper()
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
		if err != nil {
			t.Fatalf("%s: %q is not a number", key, s)
		}
		return v
	}
	found := false
	for _, m := range productRe.FindAllStringSubmatch(why, -1) {
		found = true
		sum := num(m[2]) * num(m[3])
		for _, term := range termRe.FindAllStringSubmatch(m[1], -1) {
			sum += num(term[1])
		}
		if got := num(m[4]); abs(sum-got) > 2 {
			t.Errorf("%s: the figures shown add up to %.1f, the formula says %s: %q", key, sum, m[4], m[0])
		}
	}
	if !found {
		t.Errorf("%s: no sum ending on tokens × time per token in %q", key, why)
	}
}
