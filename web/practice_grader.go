package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/lessons/practice"
)

// GraderConfig points open-answer grading at an OpenAI-compatible server.
// With URL empty there is no model grading: the page offers none.
type GraderConfig struct {
	URL    string // API root including /v1, e.g. http://127.0.0.1:8000/v1
	Model  string // the model to ask; required with URL
	APIKey string // sent as a bearer token when set
	// Timeout bounds one grading; default 20 s. It must stay under the
	// server's write timeout, since the learner waits on the POST.
	Timeout time.Duration
	// MaxConcurrent caps gradings in flight on the whole server, so a
	// class cannot queue a slow model behind itself; default 4.
	MaxConcurrent int
}

func (g GraderConfig) withDefaults() GraderConfig {
	if g.Timeout == 0 {
		g.Timeout = 20 * time.Second
	}
	if g.MaxConcurrent == 0 {
		g.MaxConcurrent = 4
	}
	return g
}

// validate reports every bad grader field; writeTimeout is the server's.
func (g GraderConfig) validate(writeTimeout time.Duration) []error {
	if g.URL == "" {
		return nil
	}
	var errs []error
	if u, err := url.Parse(g.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("grader url %q: want http(s)://host[:port]/v1", g.URL))
	}
	if strings.TrimSpace(g.Model) == "" {
		errs = append(errs, errors.New("grader model is empty: name the model the grader server serves"))
	}
	if g.Timeout < 0 || g.Timeout >= writeTimeout {
		errs = append(errs, fmt.Errorf("grader timeout %v: want more than 0 and less than the write timeout %v", g.Timeout, writeTimeout))
	}
	if g.MaxConcurrent < 1 {
		errs = append(errs, fmt.Errorf("grader max concurrent %d: want at least 1", g.MaxConcurrent))
	}
	return errs
}

// grader asks a model for per-rubric-point verdicts on open answers.
type grader struct {
	client  *upstream.Client
	model   string
	timeout time.Duration
	slots   chan struct{}
}

// newGrader returns nil when no grading server is configured.
func newGrader(cfg GraderConfig) *grader {
	if cfg.URL == "" {
		return nil
	}
	return &grader{
		client: &upstream.Client{BaseURL: strings.TrimRight(cfg.URL, "/"), APIKey: cfg.APIKey, HTTP: &http.Client{}},
		model:  cfg.Model, timeout: cfg.Timeout, slots: make(chan struct{}, cfg.MaxConcurrent),
	}
}

// gradeProblem is a grading that failed, in words a learner can act on.
type gradeProblem string

func (p gradeProblem) Error() string { return string(p) }

// grade asks the model for verdicts on answer. Failures come back as a
// gradeProblem whose text is safe to show and keep.
func (g *grader) grade(ctx context.Context, q openQuestion, answer string) (practice.Grading, error) {
	select {
	case g.slots <- struct{}{}:
		defer func() { <-g.slots }()
	default:
		return practice.Grading{}, gradeProblem("The grader is busy with other answers; try again in a minute.")
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	temp := 0.0
	req := upstream.Request{Model: g.model, Temperature: &temp, MaxTokens: 200 + 120*len(q.Rubric), ResponseFormat: "json_object",
		Messages: []upstream.Message{{Role: "system", Content: practice.GradingInstructions},
			{Role: "user", Content: practice.GradingRequest(q.Question, q.Rubric, answer)}}}
	res, err := g.client.Stream(ctx, req, nil)
	var se *upstream.ServerError
	if errors.As(err, &se) && (se.Status == http.StatusBadRequest || se.Status == http.StatusUnprocessableEntity) {
		// Servers without response_format refuse it; ask again in words.
		req.ResponseFormat = ""
		res, err = g.client.Stream(ctx, req, nil)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return practice.Grading{}, gradeProblem(fmt.Sprintf("The grader did not answer within %v; try again later.", g.timeout))
	case errors.As(err, &se) && se.Status != 0:
		return practice.Grading{}, gradeProblem(fmt.Sprintf("The grader's server refused the request (HTTP %d); try again later.", se.Status))
	case err != nil:
		return practice.Grading{}, gradeProblem("The grader could not be reached or broke off its reply; try again later.")
	}
	gr, err := practice.ParseGrading(res.Text, len(q.Rubric), answer)
	if err != nil {
		return gr, gradeProblem("The grader's reply could not be read; your own ticks still stand.")
	}
	return gr, nil
}
