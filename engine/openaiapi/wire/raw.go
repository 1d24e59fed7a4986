package wire

import "encoding/json"

// Limits on what one request may carry; far above real use, they stop
// absurd values before they reach the engine.
const (
	maxStops       = 16
	maxStopLen     = 1024
	maxMessages    = 4096
	maxPromptIDs   = 1 << 20
	maxTokensLimit = 1 << 24
)

// rawStreamOptions is stream_options as sent.
type rawStreamOptions struct {
	IncludeUsage *bool `json:"include_usage"`
}

// rawCommon holds the fields both endpoints share, as sent. Fields the
// engine cannot honour are decoded only to be refused by name (see
// unsupported.go): silently ignoring them would hand a client something
// other than what it asked for.
type rawCommon struct {
	Model               string            `json:"model"`
	Stream              *bool             `json:"stream"`
	StreamOptions       *rawStreamOptions `json:"stream_options"`
	MaxTokens           *int64            `json:"max_tokens"`
	MaxCompletionTokens *int64            `json:"max_completion_tokens"`
	Stop                json.RawMessage   `json:"stop"`
	Seed                *float64          `json:"seed"`
	Temperature         *float64          `json:"temperature"`
	TopP                *float64          `json:"top_p"`
	PresencePenalty     *float64          `json:"presence_penalty"`
	FrequencyPenalty    *float64          `json:"frequency_penalty"`
	N                   *int64            `json:"n"`
	IgnoreEOS           *bool             `json:"ignore_eos"`
	MinTokens           *int64            `json:"min_tokens"`

	BestOf         *int64          `json:"best_of"`
	Logprobs       json.RawMessage `json:"logprobs"`
	TopLogprobs    *int64          `json:"top_logprobs"`
	Echo           *bool           `json:"echo"`
	Suffix         *string         `json:"suffix"`
	LogitBias      json.RawMessage `json:"logit_bias"`
	Tools          json.RawMessage `json:"tools"`
	Functions      json.RawMessage `json:"functions"`
	ResponseFormat json.RawMessage `json:"response_format"`
}

// rawMessage is one chat message as sent.
type rawMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type rawChat struct {
	rawCommon
	Messages []rawMessage `json:"messages"`
}

type rawCompletion struct {
	rawCommon
	Prompt json.RawMessage `json:"prompt"`
}
