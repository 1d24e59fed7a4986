package wire

import (
	"bytes"
	"encoding/json"
)

// refuseUnsupported answers 400, naming the field, for every setting the
// engine cannot honour. Each is accepted at its "off" value (null, false,
// 0, 1 for best_of, empty), which is what SDKs and tools send by default;
// any other value asks for output this server does not produce.
func (c *rawCommon) refuseUnsupported(chat bool) error {
	if c.BestOf != nil && *c.BestOf != 1 {
		return BadRequest("best_of", "best_of is %d: this server generates one candidate per request (omit best_of or send 1)", *c.BestOf)
	}
	if !isOff(c.Logprobs) {
		return BadRequest("logprobs", "logprobs is set: this server does not compute token log probabilities (omit it or send %s)", offWord(chat))
	}
	if c.TopLogprobs != nil && *c.TopLogprobs != 0 {
		return BadRequest("top_logprobs", "top_logprobs is %d: this server does not compute token log probabilities (omit it or send 0)", *c.TopLogprobs)
	}
	if c.Echo != nil && *c.Echo {
		return BadRequest("echo", "echo is true: this server does not echo the prompt back (omit it or send false)")
	}
	if c.Suffix != nil && *c.Suffix != "" {
		return BadRequest("suffix", "suffix is set: this server does not insert text after a completion (omit it)")
	}
	if !isOff(c.LogitBias) {
		return BadRequest("logit_bias", "logit_bias is set: this server does not bias token choice (omit it or send {})")
	}
	if !isOff(c.Tools) {
		return BadRequest("tools", "tools are set: this server does not call tools (omit tools)")
	}
	if !isOff(c.Functions) {
		return BadRequest("functions", "functions are set: this server does not call functions (omit functions)")
	}
	if !isOff(c.ResponseFormat) {
		var rf struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(c.ResponseFormat, &rf) != nil || rf.Type != "text" {
			return BadRequest("response_format", "response_format asks for structured output: this server writes plain text only (omit it or send {\"type\":\"text\"})")
		}
	}
	return nil
}

// isOff reports an absent value or one of the JSON spellings of "none".
func isOff(raw json.RawMessage) bool {
	switch string(bytes.TrimSpace(raw)) {
	case "", "null", "false", "0", "[]", "{}":
		return true
	}
	return false
}

func offWord(chat bool) string {
	if chat {
		return "false"
	}
	return "null"
}
