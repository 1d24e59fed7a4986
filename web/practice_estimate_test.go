package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/lessons/practice"
)

// TestEstimateShowsWhatItGraded: the page grades the value it says it
// read. A decimal comma is a decimal ("7,5 ms" is 7.5 ms, full marks on a
// 7.34 ms answer) and the page shows "read as 7.5 ms"; a negative time and
// an ambiguous mix of commas and points are refused with their own reason.
func TestEstimateShowsWhatItGraded(t *testing.T) {
	tm, _ := practice.LookupTemplate("decode-tpot")
	prob, err := tm.Draw(3)
	if err != nil {
		t.Fatal(err)
	}
	if got := tm.Format(prob.Answer); got != "7.34 ms" {
		t.Fatalf("decode-tpot seed 3 is %s; this test assumes 7.34 ms", got)
	}
	tests := []struct {
		answer     string
		status     int
		says       []string // on the page after the answer
		notWanted  string
		historyRow string
	}{
		{"7,5 ms", http.StatusSeeOther, []string{"Full marks", `id="read-as"`, "We read it as <strong>7.5 ms</strong>."}, "", "7,5 ms (read as 7.5 ms)"},
		{"7.5 ms", http.StatusSeeOther, []string{"Full marks"}, `id="read-as"`, "7.5 ms"},
		{"0,0075 s", http.StatusSeeOther, []string{"Full marks", "We read it as <strong>7.5 ms</strong>."}, "", "0,0075 s (read as 7.5 ms)"},
		{"-5 ms", http.StatusUnprocessableEntity, []string{"the time cannot be negative"}, "start with a number", ""},
		{"−5 ms", http.StatusUnprocessableEntity, []string{"the time cannot be negative"}, "start with a number", ""},
		{"1.200,5 ms", http.StatusUnprocessableEntity, []string{"could be read two ways", "for example 1.2 s or 1200 ms"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			ts, _ := newPracticeServer(t)
			c := client(t)
			get(t, c, ts.url+"/")
			resp, err := c.PostForm(ts.url+"/practice/estimate/decode-tpot", url.Values{"seed": {"3"}, "answer": {tt.answer}})
			if err != nil {
				t.Fatal(err)
			}
			body := readAll(resp)
			if resp.StatusCode != tt.status {
				t.Fatalf("POST %q: %d, want %d", tt.answer, resp.StatusCode, tt.status)
			}
			if resp.StatusCode == http.StatusSeeOther {
				_, body = get(t, c, ts.url+"/practice/estimate/decode-tpot?seed=3")
				if !strings.Contains(body, "<a href=\"/practice/estimate/decode-tpot?seed=3\">"+htmlEscape(tt.historyRow)+"</a>") {
					t.Errorf("history row does not read %q", tt.historyRow)
				}
			}
			for _, want := range tt.says {
				if !strings.Contains(body, want) {
					t.Errorf("answer %q: page lacks %q", tt.answer, want)
				}
			}
			if tt.notWanted != "" && strings.Contains(body, tt.notWanted) {
				t.Errorf("answer %q: page says %q", tt.answer, tt.notWanted)
			}
		})
	}
}
