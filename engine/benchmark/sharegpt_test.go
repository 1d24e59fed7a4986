package benchmark

import (
	"fmt"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/textmodel"
)

// conv is one ShareGPT entry with a prompt and an answer of about the
// given numbers of words.
func conv(prompt, answer int) string {
	return fmt.Sprintf(`{"id":"x","conversations":[{"from":"human","value":%q},{"from":"gpt","value":%q}]}`,
		strings.Repeat("word ", prompt), strings.Repeat("reply ", answer))
}

func TestLoadShareGPT(t *testing.T) {
	tok := textmodel.Default()
	file := "[" + strings.Join([]string{
		conv(20, 30), conv(40, 10),
		conv(1, 30),     // prompt too short
		conv(20, 1),     // answer too short
		conv(1500, 10),  // prompt too long
		conv(900, 1500), // together too long
		`{"conversations":[{"from":"human","value":"only one turn here"}]}`,
	}, ",") + "]"
	for _, c := range []struct {
		name    string
		n, out  int
		wantOut []int // output lengths drawn, in any order
	}{
		{name: "valid pairs only", n: 2},
		{name: "oversampled", n: 5},
		{name: "fixed output length", n: 2, out: 7, wantOut: []int{7, 7}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := DefaultWorkload()
			w.NumRequests, w.RequestRate = c.n, 10
			reqs, err := LoadShareGPT(strings.NewReader(file), tok, w, c.out)
			if err != nil {
				t.Fatal(err)
			}
			if len(reqs) != c.n {
				t.Fatalf("%d requests, want %d", len(reqs), c.n)
			}
			for i, r := range reqs {
				if r.ID != fmt.Sprintf("bench-%d", i) || r.PromptLen != len(tok.Encode(r.Prompt)) || r.PromptLen < 4 || r.PromptLen > 100 {
					t.Errorf("request %d: %+v", i, r)
				}
				if c.out > 0 && r.OutputLen != c.out {
					t.Errorf("request %d: output %d, want %d", i, r.OutputLen, c.out)
				}
				if i > 0 && r.Arrival < reqs[i-1].Arrival {
					t.Errorf("arrivals out of order at %d", i)
				}
			}
			if last := reqs[len(reqs)-1].Arrival.Seconds(); last < float64(c.n)/10-1e-6 || last > float64(c.n)/10+1e-6 {
				t.Errorf("last arrival %v s, want %v (vLLM's rescaling)", last, float64(c.n)/10)
			}
			again, _ := LoadShareGPT(strings.NewReader(file), tok, w, c.out)
			if fmt.Sprint(again) != fmt.Sprint(reqs) {
				t.Error("the same seed drew different requests")
			}
		})
	}
	for _, c := range []struct{ file, err string }{
		{`{"conversations": []}`, "want a JSON list"},
		{`[` + conv(1, 1) + `]`, "no conversation that passes"},
		{`not json`, "want a JSON list"},
	} {
		if _, err := LoadShareGPT(strings.NewReader(c.file), tok, DefaultWorkload(), 0); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%.30s: error %v, want %q", c.file, err, c.err)
		}
	}
}

func FuzzLoadShareGPT(f *testing.F) {
	f.Add("[" + conv(10, 10) + "]")
	f.Add(`[{"conversations":[{"from":"human","value":""},{"from":"gpt"}]}]`)
	f.Add(`[]`)
	f.Add(`[{"conversations":null}]`)
	tok := textmodel.Default()
	f.Fuzz(func(t *testing.T, file string) {
		w := DefaultWorkload()
		w.NumRequests = 3
		reqs, err := LoadShareGPT(strings.NewReader(file), tok, w, 0)
		if err == nil && len(reqs) != 3 {
			t.Fatalf("%d requests without an error", len(reqs))
		}
	})
}
