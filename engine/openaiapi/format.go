package openaiapi

// format shapes the JSON of one endpoint: chat or legacy completions.
type format interface {
	// chunk is one streamed piece; finish is set on the last one.
	chunk(piece string, first bool, finish *string) any
	// usageChunk is the include_usage chunk, with empty choices.
	usageChunk(u *usage) any
	// whole is the non-streaming response.
	whole(text, finish string, u *usage) any
}

type chatFormat struct {
	id, model string
	created   int64
}

func (f chatFormat) chunk(piece string, first bool, finish *string) any {
	d := chatDelta{Content: &piece}
	if first {
		d.Role = "assistant"
	}
	return chatChunk{ID: f.id, Object: "chat.completion.chunk", Created: f.created, Model: f.model,
		Choices: []chatChunkChoice{{Delta: d, FinishReason: finish}}}
}

func (f chatFormat) usageChunk(u *usage) any {
	return chatChunk{ID: f.id, Object: "chat.completion.chunk", Created: f.created, Model: f.model,
		Choices: []chatChunkChoice{}, Usage: u}
}

func (f chatFormat) whole(text, finish string, u *usage) any {
	return chatCompletion{ID: f.id, Object: "chat.completion", Created: f.created, Model: f.model,
		Choices: []chatChoice{{Message: chatMessage{Role: "assistant", Content: text}, FinishReason: finish}}, Usage: u}
}

type textFormat struct {
	id, model string
	created   int64
}

func (f textFormat) chunk(piece string, _ bool, finish *string) any {
	return textCompletion{ID: f.id, Object: "text_completion", Created: f.created, Model: f.model,
		Choices: []textChoice{{Text: piece, FinishReason: finish}}}
}

func (f textFormat) usageChunk(u *usage) any {
	return textCompletion{ID: f.id, Object: "text_completion", Created: f.created, Model: f.model,
		Choices: []textChoice{}, Usage: u}
}

func (f textFormat) whole(text, finish string, u *usage) any {
	return textCompletion{ID: f.id, Object: "text_completion", Created: f.created, Model: f.model,
		Choices: []textChoice{{Text: text, FinishReason: &finish}}, Usage: u}
}
