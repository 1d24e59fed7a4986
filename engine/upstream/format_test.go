package upstream

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestResponseFormatSentOnlyWhenAsked(t *testing.T) {
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"{}\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL}
	tests := []struct {
		format string
		want   string
		has    bool
	}{
		{"json_object", `"response_format":{"type":"json_object"}`, true},
		{"", `"response_format"`, false},
	}
	for _, tt := range tests {
		if _, err := c.Stream(context.Background(), Request{Messages: []Message{{Role: "user", Content: "x"}}, ResponseFormat: tt.format}, nil); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(body, tt.want) != tt.has {
			t.Errorf("format %q: body %s, want %s present=%v", tt.format, body, tt.want, tt.has)
		}
	}
}
