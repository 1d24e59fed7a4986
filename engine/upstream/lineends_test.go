package upstream

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestLineEndsNormalize(t *testing.T) {
	for name, tc := range map[string]struct {
		pieces []string
		want   string
	}{
		"plain":              {[]string{"a", "b\nc"}, "ab\nc"},
		"crlf in one piece":  {[]string{"a\r\nb"}, "a\nb"},
		"bare cr":            {[]string{"a\rb\r"}, "a\nb\n"},
		"crlf split":         {[]string{"a\r", "\nb"}, "a\nb"},
		"crlf split, empty":  {[]string{"a\r", "", "\nb"}, "a\nb"},
		"cr then lone lf":    {[]string{"a\r", "\n", "\n"}, "a\n\n"},
		"cr cr lf":           {[]string{"\r\r\n"}, "\n\n"},
		"lf after non-cr":    {[]string{"a", "\nb"}, "a\nb"},
		"injection payload":  {[]string{"\r\revent: datastar-merge-signals\rdata: signals {x: 1}"}, "\n\nevent: datastar-merge-signals\ndata: signals {x: 1}"},
		"u2028 and nul kept": {[]string{"a\u2028b\x00"}, "a\u2028b\x00"},
	} {
		t.Run(name, func(t *testing.T) {
			var n lineEnds
			var got strings.Builder
			for _, p := range tc.pieces {
				got.WriteString(n.normalize(p))
			}
			if got.String() != tc.want {
				t.Errorf("got %q, want %q", got.String(), tc.want)
			}
		})
	}
}

func TestScanEventLines(t *testing.T) {
	for name, tc := range map[string]struct {
		in   string
		want []string
	}{
		"lf":           {"a\nb\n", []string{"a", "b"}},
		"crlf":         {"a\r\nb\r\n", []string{"a", "b"}},
		"cr":           {"a\rb\r", []string{"a", "b"}},
		"mixed":        {"a\r\n\rb\n\nc", []string{"a", "", "b", "", "c"}},
		"no final end": {"a", []string{"a"}},
		"empty":        {"", nil},
	} {
		t.Run(name, func(t *testing.T) {
			sc := bufio.NewScanner(strings.NewReader(tc.in))
			sc.Split(scanEventLines)
			var got []string
			for sc.Scan() {
				got = append(got, sc.Text())
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || len(got) != len(tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStreamNormalizesDeltas: a server whose deltas carry CR (alone, in
// CRLF, or split across chunks) and whose own lines end in CR or CRLF is
// read in full, and no chunk or result text keeps a CR.
func TestStreamNormalizesDeltas(t *testing.T) {
	deltas := []string{"one\r", "\ntwo\r\rthree\r\n", "\revent: datastar-merge-signals\rdata: signals {x: 1}"}
	const want = "one\ntwo\n\nthree\n\nevent: datastar-merge-signals\ndata: signals {x: 1}"
	for name, eol := range map[string]string{"lf": "\n", "crlf": "\r\n", "cr": "\r"} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for _, d := range deltas {
					b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"delta": map[string]string{"content": d}}}})
					fmt.Fprintf(w, "data: %s%s%s", b, eol, eol)
				}
				fmt.Fprintf(w, "data: [DONE]%s%s", eol, eol)
			}))
			defer srv.Close()
			var got strings.Builder
			res, err := (&Client{BaseURL: srv.URL}).Stream(context.Background(),
				Request{Messages: []Message{{Role: "user", Content: "q"}}}, func(k Chunk) {
					if strings.Contains(k.Text, "\r") {
						t.Errorf("chunk %q keeps a CR", k.Text)
					}
					got.WriteString(k.Text)
				})
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want || res.Text != want {
				t.Errorf("chunks %q, result %q, want %q", got.String(), res.Text, want)
			}
		})
	}
}
