package pipeline

import (
	"context"
	"testing"
)

// mustRun is p.Run for a request the test expects to be accepted: Run's
// error means the request was refused before starting, which such a test
// must not pass over in silence.
func mustRun(t *testing.T, p *Pipeline, ctx context.Context, req Request, on func(Event)) *Result {
	t.Helper()
	res, err := p.Run(ctx, req, on)
	if err != nil {
		t.Fatalf("run %q: refused: %v", req.Question, err)
	}
	return res
}
