package moderation

import (
	"testing"

	mod "github.com/latencylab/latencylab/engine/moderation"
)

func TestScenarioAnswers(t *testing.T) {
	c, err := mod.NewChecker(mod.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range scenarioOptions() {
		req := buildRequest(scenarios[name], "Session moderation-test-1")
		out := c.Detect(req.answer.Text)
		t.Logf("%s: %d tokens, categories %v\n%s", name, len(req.answer.Tokens), out.Categories, req.answer.Text)
	}
}
