// Package openaiapi serves an engine over the OpenAI HTTP API as vLLM does:
// POST /v1/chat/completions and /v1/completions (streaming and not),
// and GET /v1/models. It is a plain net/http handler, servable alone or
// mounted by the web app. Its requests reach the serving metrics (package
// servemetrics) through the engine's observer, labelled source "api".
//
// The wire format follows what the official SDKs require: one id on every
// chunk of a stream, the assistant role in the first delta, a final
// finish_reason, no "error" key in normal chunks, an optional usage chunk with
// empty choices before [DONE], and errors as {"error": {...}}.
//
// With Config.Moderation set, answers pass a moderation stage: the prompt
// is checked before generation, only text that passed a check is streamed,
// and a blocked answer ends with finish_reason "content_filter" (its engine
// request cancelled, its usage the tokens actually sent).
package openaiapi
