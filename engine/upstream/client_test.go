package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestStreamChatAndErrors(t *testing.T) {
	var gotBody string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
		switch r.URL.Path {
		case "/v1/chat/completions":
			fmt.Fprint(w, ": keep-alive comment\n\n")
			fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n")
			fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there\"},\"finish_reason\":\"stop\"}]}\n\n")
			fmt.Fprint(w, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}\n\n")
			fmt.Fprint(w, "data: [DONE]\n\n")
		case "/v1/completions":
			fmt.Fprint(w, "data: {\"choices\":[{\"text\":\"a\"}]}\n\n")
			fmt.Fprint(w, "data: {\"error\":{\"message\":\"engine closed\",\"type\":\"server_error\"}}\n\n")
		default:
			w.WriteHeader(400)
			fmt.Fprint(w, `{"error":{"message":"This model's maximum context length is 8 tokens.","type":"invalid_request_error","param":null,"code":"context_length_exceeded"}}`)
		}
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL + "/v1"}
	var chunks []string
	res, err := c.Stream(context.Background(), Request{Model: "m", Messages: []Message{{Role: "user", Content: "hello"}}, MaxTokens: 4, IgnoreEOS: true},
		func(k Chunk) { chunks = append(chunks, k.Text+"|"+k.FinishReason) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Hi there" || res.FinishReason != "stop" || res.Usage == nil || res.Usage.CompletionTokens != 2 {
		t.Fatalf("result %+v", res)
	}
	if strings.Join(chunks, ",") != "Hi|, there|stop" {
		t.Fatalf("chunks %q", chunks)
	}
	for _, want := range []string{`"stream":true`, `"include_usage":true`, `"ignore_eos":true`, `"max_tokens":4`, `"messages":[{"role":"user","content":"hello"}]`} {
		if !strings.Contains(gotBody, want) {
			t.Errorf("request body %s lacks %s", gotBody, want)
		}
	}
	_, err = c.Stream(context.Background(), Request{Prompt: "x"}, nil)
	var se *ServerError
	if !errors.As(err, &se) || se.Status != 0 || se.Message != "engine closed" {
		t.Fatalf("in-stream error: %v", err)
	}
	c.BaseURL = srv.URL + "/other"
	_, err = c.Stream(context.Background(), Request{Prompt: "x"}, nil)
	if !errors.As(err, &se) || se.Status != 400 || !strings.Contains(se.Message, "maximum context length") {
		t.Fatalf("status error: %v", err)
	}
}
