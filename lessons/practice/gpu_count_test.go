package practice

import (
	"fmt"
	"strings"
	"testing"
)

// TestWorkedSolutionsCountGPUs: the per-GPU division reads "÷ 1 GPU" or
// "÷ 4 GPUs", never "GPU(s)", for every deployment a drill can draw.
func TestWorkedSolutionsCountGPUs(t *testing.T) {
	for _, d := range deployments {
		t.Run(d.String(), func(t *testing.T) {
			s, err := newSetup(d)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("÷ %d GPUs ", d.tp)
			if d.tp == 1 {
				want = "÷ 1 GPU "
			}
			if got := s.weightsStep().Formula; !strings.Contains(got, want) || strings.Contains(got, "(s)") {
				t.Errorf("weights step %q, want it to contain %q", got, want)
			}
		})
	}
	tm, _ := LookupTemplate("kv-capacity")
	seen := map[string]bool{}
	for seed := range uint64(60) {
		p, err := tm.Draw(seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range p.Steps {
			if strings.Contains(st.Formula, "(s)") {
				t.Errorf("seed %d: %s: %q", seed, st.What, st.Formula)
			}
			for _, form := range []string{"÷ 1 GPU =", "GPUs ="} {
				if strings.Contains(st.Formula, form) {
					seen[form] = true
				}
			}
		}
	}
	if len(seen) != 2 {
		t.Errorf("60 seeds of kv-capacity showed only %v; want both the singular and the plural", seen)
	}
}
