package wire

import (
	"encoding/json"
	"math"
)

// params validates the settings shared by both endpoints. For chat,
// max_completion_tokens wins over the deprecated max_tokens, as in OpenAI.
func (c *rawCommon) params(chat bool, lim Limits) (Params, bool, bool, error) {
	var p Params
	if err := c.refuseUnsupported(chat); err != nil {
		return p, false, false, err
	}
	if err := c.checkSamplingRanges(); err != nil {
		return p, false, false, err
	}
	stream := c.Stream != nil && *c.Stream
	withUsage := false
	if c.StreamOptions != nil {
		if !stream {
			return p, false, false, BadRequest("stream_options", "stream_options can only be set when stream is true")
		}
		withUsage = c.StreamOptions.IncludeUsage != nil && *c.StreamOptions.IncludeUsage
	}
	if c.N != nil && *c.N != 1 {
		return p, false, false, BadRequest("n", "n is %d: this server generates exactly one choice (n=1)", *c.N)
	}
	mt := c.MaxTokens
	param := "max_tokens"
	if chat && c.MaxCompletionTokens != nil {
		mt, param = c.MaxCompletionTokens, "max_completion_tokens"
	}
	if mt != nil {
		// Values between the context length and the hard cap go on to
		// the context check, which answers context_length_exceeded as
		// vLLM does; the message here states the same real bound.
		if *mt < 1 || *mt > maxTokensLimit {
			return p, false, false, BadRequest(param, "%s is %d: want 1..%d%s", param, *mt, lim.maxTokens(), lim.contextNote())
		}
		p.MaxTokens = int(*mt)
	} else if !chat {
		p.MaxTokens = 16 // the completions API's documented default
	}
	if c.Temperature != nil {
		t := *c.Temperature
		if math.IsNaN(t) || t < 0 || t > 2 {
			return p, false, false, BadRequest("temperature", "temperature is %g: want 0..2", t)
		}
		p.Temperature = t
	} else {
		p.Temperature = 1
	}
	if c.Seed != nil {
		s := *c.Seed
		if s != math.Trunc(s) || s < math.MinInt64 || s >= math.MaxInt64 {
			return p, false, false, BadRequest("seed", "seed is %g: want an integer between %d and %d", s, int64(math.MinInt64), int64(math.MaxInt64))
		}
		v := int64(s)
		p.Seed = &v
	}
	p.IgnoreEOS = c.IgnoreEOS != nil && *c.IgnoreEOS
	if c.MinTokens != nil {
		if *c.MinTokens < 0 || (p.MaxTokens > 0 && *c.MinTokens > int64(p.MaxTokens)) {
			return p, false, false, BadRequest("min_tokens", "min_tokens is %d: want 0..max_tokens", *c.MinTokens)
		}
		p.MinTokens = int(*c.MinTokens)
	}
	stops, err := decodeStop(c.Stop)
	if err != nil {
		return p, false, false, err
	}
	p.Stop = stops
	return p, stream, withUsage, nil
}

// checkSamplingRanges refuses out-of-range nucleus and penalty settings.
// In range they are accepted: they change which tokens are drawn, not how
// long drawing them takes, and the simulated text model does not model
// them, so honouring them would change nothing a client can measure.
func (c *rawCommon) checkSamplingRanges() error {
	if v := c.TopP; v != nil && (math.IsNaN(*v) || *v <= 0 || *v > 1) {
		return BadRequest("top_p", "top_p is %g: want a number above 0 and at most 1", *v)
	}
	for _, f := range []struct {
		name string
		v    *float64
	}{{"presence_penalty", c.PresencePenalty}, {"frequency_penalty", c.FrequencyPenalty}} {
		if f.v != nil && (math.IsNaN(*f.v) || *f.v < -2 || *f.v > 2) {
			return BadRequest(f.name, "%s is %g: want -2..2", f.name, *f.v)
		}
	}
	return nil
}

// decodeStop accepts null, a string or an array of strings.
func decodeStop(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	var many []string
	if json.Unmarshal(raw, &one) == nil {
		many = []string{one}
	} else if json.Unmarshal(raw, &many) != nil {
		return nil, BadRequest("stop", "stop must be a string or an array of strings")
	}
	if len(many) > maxStops {
		return nil, BadRequest("stop", "%d stop sequences: want at most %d", len(many), maxStops)
	}
	var out []string
	for _, s := range many {
		if len(s) > maxStopLen {
			return nil, BadRequest("stop", "a stop sequence is %d bytes: want at most %d", len(s), maxStopLen)
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}
