package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeGraderServer is an OpenAI-compatible server whose next reply the
// test chooses: a body (streamed as one chunk), an error status, a hang,
// or a refusal of response_format.
type fakeGraderServer struct {
	mu           sync.Mutex
	reply        string
	status       int
	hang         bool
	refuseFormat bool
	requests     []string
}

func (f *fakeGraderServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, string(body))
	reply, status, hang, refuse := f.reply, f.status, f.hang, f.refuseFormat
	f.mu.Unlock()
	switch {
	case r.URL.Path != "/v1/chat/completions":
		http.NotFound(w, r)
	case hang:
		<-r.Context().Done() // slower than the grader waits
	case refuse && strings.Contains(string(body), "response_format"):
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"response_format is not supported","type":"invalid_request_error"}}`)
	case status != 0:
		w.WriteHeader(status)
		fmt.Fprint(w, `{"error":{"message":"overloaded","type":"server_error"}}`)
	default:
		content, _ := json.Marshal(reply)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":%s},\"finish_reason\":\"stop\"}]}\n\n", content)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

func (f *fakeGraderServer) set(reply string, status int, hang, refuse bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reply, f.status, f.hang, f.refuseFormat, f.requests = reply, status, hang, refuse, nil
}

func TestOpenAnswerModelGrading(t *testing.T) {
	fake := &fakeGraderServer{}
	upstream := httptest.NewServer(fake)
	defer upstream.Close()
	s := newTestServer(t, func(c *Config) {
		c.Lessons = PackageLessons{}
		c.Grader = GraderConfig{URL: upstream.URL + "/v1", Model: "judge-7b", Timeout: 300 * time.Millisecond}
	})
	base := startHTTP(t, s).URL
	c := client(t)
	get(t, c, base+"/")
	page := base + "/practice/open/ttft-long-prompt"
	answer := "Prefill work grows with the prompt length. Attention makes it grow faster than linearly, so a long prompt hurts. " +
		"I would chunk the prefill and cache the shared prefix so repeated prompts skip most of the work entirely today. " +
		"Queueing behind other long prompts adds to it as well."
	resp := postForm(t, c, page, url.Values{"answer": {answer}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer: %d", resp.StatusCode)
	}
	loc := resp.Header.Get("Location")
	id := strings.TrimSuffix(strings.SplitN(loc, "attempt=", 2)[1], "#compare")
	if _, body := get(t, c, base+loc); !strings.Contains(body, "Ask judge-7b to grade this attempt") || strings.Contains(body, "Graded by") {
		t.Fatal("the page does not offer model grading before it is asked for")
	}
	postForm(t, c, page+"/score", url.Values{"attempt": {id}, "tick": {"0"}})

	good := `{"verdicts":[{"point":0,"covered":true,"quote":"Prefill work grows with the prompt length."},` +
		`{"point":1,"covered":true,"quote":"I would chunk the prefill and cache the shared prefix so repeated prompts skip most of the work entirely today."},` +
		`{"point":2,"covered":true,"quote":"Use a bigger GPU."},{"point":3,"covered":false,"quote":""}]}`
	tests := []struct {
		name        string
		reply       string
		status      int
		hang        bool
		refuse      bool
		want        []string
		wantAbsent  []string
		wantFormats []bool // per request to the fake: asked for json_object?
	}{
		{"good JSON", good, 0, false, false,
			[]string{"Graded by <strong>judge-7b</strong>: covered 2 of 4 points.", "Prefill work grows with the prompt length.",
				"The model quoted “Use a bigger GPU.”, which is not in your answer", "Score: <strong>25%</strong>"},
			[]string{"grading-problem"}, []bool{true}},
		{"server without response_format", good, 0, false, true,
			[]string{"covered 2 of 4 points"}, nil, []bool{true, false}},
		{"malformed JSON", `Sure! {"verdicts": [ {"point": 0, "covered": tru`, 0, false, false,
			// the earlier opinion stays beside the failure
			[]string{"Grading by judge-7b failed: The grader&#39;s reply could not be read", "Score: <strong>25%</strong>", "covered 2 of 4 points"},
			nil, []bool{true}},
		{"error status", "", http.StatusServiceUnavailable, false, false,
			[]string{"failed: The grader&#39;s server refused the request (HTTP 503)"}, []string{"overloaded"}, []bool{true}},
		{"slow reply", "", 0, true, false,
			[]string{"failed: The grader did not answer within 300ms"}, nil, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake.set(tt.reply, tt.status, tt.hang, tt.refuse)
			resp := postForm(t, c, page+"/grade", url.Values{"attempt": {id}})
			if resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("grade: %d, want 303", resp.StatusCode)
			}
			_, body := get(t, c, base+loc)
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, w := range tt.wantAbsent {
				if strings.Contains(body, w) {
					t.Errorf("page shows %q", w)
				}
			}
			fake.mu.Lock()
			reqs := fake.requests
			fake.mu.Unlock()
			if len(reqs) != len(tt.wantFormats) {
				t.Fatalf("%d requests to the grader, want %d", len(reqs), len(tt.wantFormats))
			}
			for i, asked := range tt.wantFormats {
				if strings.Contains(reqs[i], `"response_format":{"type":"json_object"}`) != asked || !strings.Contains(reqs[i], `"model":"judge-7b"`) ||
					!strings.Contains(reqs[i], "Prefill work grows") {
					t.Errorf("request %d = %s; want the model, the answer and json_object=%v", i, reqs[i], asked)
				}
			}
		})
	}
	if _, md := get(t, c, base+"/practice/export.md"); !strings.Contains(md, "Graded by judge-7b (its opinion, not the score): covered 2 of 4 points") ||
		!strings.Contains(md, "- covered: ") || !strings.Contains(md, "(“Prefill work grows with the prompt length.”)") {
		t.Errorf("the export lacks the model's opinion:\n%s", md)
	}
	// A fresh attempt whose only grading failed shows the failure alone.
	resp = postForm(t, c, page, url.Values{"answer": {answer + " Second try."}})
	loc = resp.Header.Get("Location")
	fresh := strings.TrimSuffix(strings.SplitN(loc, "attempt=", 2)[1], "#compare")
	fake.set("no JSON here", 0, false, false)
	postForm(t, c, page+"/grade", url.Values{"attempt": {fresh}})
	if _, body := get(t, c, base+loc); !strings.Contains(body, "reply could not be read") || strings.Contains(body, "Graded by") {
		t.Error("a fresh attempt with a malformed grading does not show the failure alone")
	}
	for _, bad := range []url.Values{{"attempt": {"x"}}, {"attempt": {"999"}}} {
		if resp := postForm(t, c, page+"/grade", bad); resp.StatusCode < 400 || resp.StatusCode >= 500 {
			t.Errorf("grade %v: %d, want 4xx", bad, resp.StatusCode)
		}
	}
}

func TestOpenAnswerWithoutGraderOffersNone(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.Lessons = PackageLessons{} })
	base := startHTTP(t, s).URL
	c := client(t)
	get(t, c, base+"/")
	page := base + "/practice/open/ttft-long-prompt"
	resp := postForm(t, c, page, url.Values{"answer": {strings.Repeat("Prefill work grows with the prompt and attention grows faster. ", 5)}})
	loc := resp.Header.Get("Location")
	if _, body := get(t, c, base+loc); strings.Contains(body, `id="grading"`) || strings.Contains(body, "grade this attempt") {
		t.Error("the page offers model grading without a grading server")
	}
	id := strings.TrimSuffix(strings.SplitN(loc, "attempt=", 2)[1], "#compare")
	if resp := postForm(t, c, page+"/grade", url.Values{"attempt": {id}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("grade without a grader: %d, want 404", resp.StatusCode)
	}
}

func TestGraderConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  GraderConfig
		errs int
	}{
		{"absent", GraderConfig{}, 0},
		{"good", GraderConfig{URL: "http://127.0.0.1:8000/v1", Model: "m"}, 0},
		{"no model", GraderConfig{URL: "http://127.0.0.1:8000/v1"}, 1},
		{"bad url", GraderConfig{URL: "ftp://x", Model: "m"}, 1},
		{"timeout past the write timeout", GraderConfig{URL: "http://h/v1", Model: "m", Timeout: time.Minute}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if errs := tt.cfg.withDefaults().validate(30 * time.Second); len(errs) != tt.errs {
				t.Errorf("errors %v, want %d", errs, tt.errs)
			}
		})
	}
}
