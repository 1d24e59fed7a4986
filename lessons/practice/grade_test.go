package practice

import (
	"reflect"
	"testing"
)

func TestParseGrading(t *testing.T) {
	answer := "Stream the tokens so the first word shows at once.\nModerate in windows of a few sentences. Cache the system prompt."
	tests := []struct {
		name    string
		reply   string
		want    []Verdict
		covered int
		err     bool
	}{
		{"good", `{"verdicts":[{"point":0,"covered":true,"quote":"Stream the tokens so the first word shows at once."},{"point":1,"covered":true,"quote":"moderate in windows of a few   sentences"},{"point":2,"covered":false,"quote":""}]}`,
			[]Verdict{{0, true, "Stream the tokens so the first word shows at once.", ""}, {1, true, "moderate in windows of a few   sentences", ""}, {2, false, "", ""}}, 2, false},
		{"invented quote is dropped", "Here you go:\n```json\n{\"verdicts\":[{\"point\":0,\"covered\":true,\"quote\":\"Use speculative decoding everywhere.\"}]}\n```",
			[]Verdict{{0, false, "", "Use speculative decoding everywhere."}, {1, false, "", ""}, {2, false, "", ""}}, 0, false},
		{"covered without a quote earns nothing", `{"verdicts":[{"point":2,"covered":true}]}`,
			[]Verdict{{0, false, "", ""}, {1, false, "", ""}, {2, false, "", ""}}, 0, false},
		{"out of range and repeated points ignored", `{"verdicts":[{"point":9,"covered":true,"quote":"Cache the system prompt"},{"point":2,"covered":true,"quote":"Cache the system prompt"},{"point":2,"covered":false}]}`,
			[]Verdict{{0, false, "", ""}, {1, false, "", ""}, {2, true, "Cache the system prompt", ""}}, 1, false},
		{"too short a quote", `{"verdicts":[{"point":0,"covered":true,"quote":"the"}]}`,
			[]Verdict{{0, false, "", "the"}, {1, false, "", ""}, {2, false, "", ""}}, 0, false},
		{"not json", "I think the answer is good.", nil, 0, true},
		{"broken json", `{"verdicts":[{"point":0,`, nil, 0, true},
		{"wrong shape", `{"score": 3}`, nil, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ParseGrading(tt.reply, 3, answer)
			if tt.err {
				if err != ErrUnreadableGrading {
					t.Fatalf("err = %v, want ErrUnreadableGrading", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g.Verdicts, tt.want) {
				t.Errorf("verdicts = %+v, want %+v", g.Verdicts, tt.want)
			}
			if g.Covered() != tt.covered {
				t.Errorf("covered = %d, want %d", g.Covered(), tt.covered)
			}
		})
	}
}

func FuzzParseGrading(f *testing.F) {
	for _, s := range []string{`{"verdicts":[{"point":0,"covered":true,"quote":"abc defgh ijk"}]}`, `{`, `}{`, `{"verdicts":[{"point":-1}]}`, "```json\n{}\n```"} {
		f.Add(s, "abc defgh ijk. more words here.")
	}
	f.Fuzz(func(t *testing.T, reply, answer string) {
		g, err := ParseGrading(reply, 4, answer)
		if err != nil {
			return
		}
		if len(g.Verdicts) != 4 {
			t.Fatalf("%d verdicts for 4 points", len(g.Verdicts))
		}
		for i, v := range g.Verdicts {
			if v.Point != i || v.Covered && !quoteInAnswer(v.Quote, answer) {
				t.Fatalf("verdict %d = %+v", i, v)
			}
		}
	})
}
