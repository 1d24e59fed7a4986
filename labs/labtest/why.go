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
