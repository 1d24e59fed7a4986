package levers

import (
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// rowConfig is the part of the pipeline a lever changes.
type rowConfig struct {
	buffered bool // a blocking API: the answer shows when complete
	tokens   int  // answer length
	tier     string
	parallel bool // lookups together
	cache    bool // the second of two identical requests, answered from the response cache
	helpers  int  // model calls in a row before the answer
}

// lever is one row of the table.
type lever struct {
	name  string
	how   string // what changed, for the table
	apply func(*rowConfig, settings)
	// single is true for a lever applied alone (the best-lever stats
	// compare only these).
	single bool
}

var levers = []lever{
	{name: "Baseline", how: "blocking, long answer, lookups in a row, no cache, extra model call",
		apply: func(*rowConfig, settings) {}},
	{name: "Stream", how: "show tokens as they are written", single: true,
		apply: func(c *rowConfig, _ settings) { c.buffered = false }},
	{name: "Shorter answer", how: "ask for fewer tokens", single: true,
		apply: func(c *rowConfig, s settings) { c.tokens = s.shortTokens }},
	{name: "Smaller model", how: "small tier", single: true,
		apply: func(c *rowConfig, _ settings) { c.tier = pipelinelab.TierSmall }},
	{name: "Cache hit", how: "same request again, answered by the response cache; the steps before the model still run", single: true,
		apply: func(c *rowConfig, _ settings) { c.cache = true }},
	{name: "Parallel steps", how: "three lookups together", single: true,
		apply: func(c *rowConfig, _ settings) { c.parallel = true }},
	{name: "Fewer calls", how: "no call before the answer", single: true,
		apply: func(c *rowConfig, _ settings) { c.helpers = 0 }},
	{name: "All but cache", how: "stream, shorter, small tier, parallel, no extra call",
		apply: func(c *rowConfig, s settings) {
			c.buffered, c.tokens, c.tier, c.parallel, c.helpers = false, s.shortTokens, pipelinelab.TierSmall, true, 0
		}},
}

// baseline is the slow starting point.
func baseline(s settings) rowConfig {
	return rowConfig{buffered: true, tokens: s.answerTokens, tier: s.tier, helpers: s.helpers}
}

// historyTurns is the earlier conversation every row carries.
const historyTurns = 4

// pipelineConfig is the lesson's support assistant (its stage times: an
// 80 ms guardrail, lookups of 30/120/60 ms, a 15 ms gateway) shaped by the
// row. No jitter, no timeouts and no fallback, so rows differ only by
// their lever.
func (c rowConfig) pipelineConfig(session string) pipeline.Config {
	cfg := pipeline.DefaultConfig()
	cfg.Context.Parallel = c.parallel
	cfg.Context.HistoryTurns = historyTurns
	cfg.Prompt.System = pipelinelab.SystemPrompt(session)
	cfg.Gateway.Tier, cfg.Gateway.Fallback = c.tier, nil
	cfg.Gateway.FirstTokenTimeout, cfg.Gateway.OverallTimeout, cfg.Deadline = 0, 0, 0
	cfg.Gateway.Cache, cfg.Gateway.Buffered, cfg.Gateway.ExactTokens = c.cache, c.buffered, c.tokens
	cfg.Helpers = pipeline.HelperCalls{Count: c.helpers, MaxTokens: 32}
	return cfg
}

// result is one measured row.
type result struct {
	lever     lever
	firstWord float64 // ms
	total     float64 // ms
	cost      float64 // USD
	// answer is the answer's model call alone (ms): request sent to last
	// chunk back, the figure the lesson quotes per tier and length.
	answer float64
	// The parts its why panel adds up (ms): the time before the model
	// call, the model's first token, and the answer's length; a cache
	// hit calls no model and has none of the last two.
	before, modelFirst float64
	tokens             int
}

// noWord says the row's answer brought no word: a reasoning model on a
// server spent every token thinking. Its first word is not a time, so it
// can win nothing.
func (r result) noWord() bool { return r.firstWord <= 0 && r.tokens > 0 }
