package upstreamtest

import "strings"

// A reasoning model's thinking goes in each server's own delta field:
//
//   - vLLM: "reasoning" (DeltaMessage in
//     vllm/entrypoints/openai/engine/protocol.py at
//     040a2cc2a6295ea9c313d86526ff90a103eacb3e; reasoning_content there is
//     a deprecated copy, and older releases wrote only reasoning_content).
//   - Ollama: "reasoning", beside role "assistant" and content "" on every
//     chunk (ToChunk in openai/openai.go at
//     00988753ff743bf26117964f6e43f9ebf10bce30: Delta is a Message whose
//     Reasoning is the model's Thinking).
//   - SGLang: "reasoning_content" (python/sglang/srt/entrypoints/openai/
//     protocol.py at 004c82e07d876f6e4a0ad6e15325706b0f478f1a).
//   - llama.cpp: "reasoning_content" (common/chat.cpp,
//     common_chat_msg_diff_to_json_oaicompat, from the diff's
//     reasoning_content_delta).
//
// Without a reasoning parser, and always on /v1/completions, the thinking
// is plain answer text opened by <think> and closed by </think>.

// thinkWords are the fake model's thoughts.
var thinkWords = strings.Fields("the customer asks about a refund so the returns article applies and the answer should name the days")

// think writes the k-th of n thinking tokens; end is the finish reason
// when the thinking is all the stream gets.
func (x *wire) think(k, n int, end string) {
	piece := " " + thinkWords[k%len(thinkWords)]
	if !x.thinkInText {
		x.write1(x.thinkChoice(piece), k+1, end)
		return
	}
	if k == 0 {
		piece = "<think>\n" + piece
	}
	if k == n-1 {
		piece += "\n</think>\n\n"
	}
	x.step([]string{piece}, k+1, end)
}

// thinkChoice is a choice carrying thinking, in the Format's field.
func (x *wire) thinkChoice(text string) map[string]any {
	d := map[string]any{"reasoning_content": text}
	switch x.f.Format {
	case VLLM:
		d = map[string]any{"reasoning": text}
	case Ollama:
		d = map[string]any{"role": "assistant", "content": "", "reasoning": text}
	}
	return map[string]any{"delta": d}
}
