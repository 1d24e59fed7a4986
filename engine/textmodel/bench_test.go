package textmodel

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// reportCPU adds a cpu-ns/op metric (process CPU time, GC included) to a
// benchmark: on a machine shared with other jobs it moves far less than
// ns/op. Call it with the CPU time taken before the loop.
func reportCPU(b *testing.B, start time.Duration, ok bool) {
	end, ok2 := processCPU()
	if ok && ok2 && b.N > 0 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}

// benchContext builds a retrieved-passages message of about 3,000 tokens;
// tag makes every sentence distinct, so the encode cache cannot help.
func benchContext(tag string) string {
	var b strings.Builder
	for i := 0; Count(b.String()) < 3000; i++ {
		s := shared.load().corpus.sentences[i%len(shared.load().corpus.sentences)].text
		b.WriteString("Passage ")
		b.WriteString(tag)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(": ")
		b.WriteString(s)
		b.WriteString(" ")
	}
	return b.String()
}

func benchRequest(ctx string) ComposeRequest {
	return ComposeRequest{
		Messages: []Message{
			{RoleSystem, "You are the Latency Lab support assistant."},
			{RoleTool, ctx},
			{RoleUser, "Why does a long prompt raise time to first token, and how does batching help?"},
		},
		ForcedTokens: 1000,
		Temperature:  0.7,
		Seed:         1,
	}
}

// BenchmarkCompose measures a 1,000-token answer over a 3,000-token
// context: "warm" repeats one context (a shared RAG corpus), "cold" gives
// every request unseen text, so all its sentences are BPE-encoded.
func BenchmarkCompose(b *testing.B) {
	ctx := benchContext("w")
	if n := Count(ctx); n < 3000 || n > 3100 {
		b.Fatalf("context is %d tokens", n)
	}
	b.Run("warm", func(b *testing.B) {
		req := benchRequest(ctx)
		b.ReportAllocs()
		cpu0, ok := processCPU()
		for b.Loop() {
			if a := Compose(req); len(a.Tokens) != 1000 {
				b.Fatalf("got %d tokens", len(a.Tokens))
			}
		}
		reportCPU(b, cpu0, ok)
	})
	b.Run("cold", func(b *testing.B) {
		// Contexts are built outside the timer; the cache is larger than
		// one context, so the tag changes every iteration.
		b.ReportAllocs()
		i := 0
		cpu0, ok := processCPU()
		for b.Loop() {
			b.StopTimer()
			i++
			req := benchRequest(strings.ReplaceAll(ctx, "Passage w", "Passage c"+strconv.Itoa(i)+"-"))
			b.StartTimer()
			if a := Compose(req); len(a.Tokens) != 1000 {
				b.Fatalf("got %d tokens", len(a.Tokens))
			}
		}
		reportCPU(b, cpu0, ok)
	})
}

// BenchmarkEncode measures BPE on a 3,000-token prompt, uncached and cached.
func BenchmarkEncode(b *testing.B) {
	ctx := benchContext("e")
	b.Run("uncached", func(b *testing.B) {
		st := shared.load()
		b.SetBytes(int64(len(ctx)))
		cpu0, ok := processCPU()
		for b.Loop() {
			st.tokenize(ctx)
		}
		reportCPU(b, cpu0, ok)
	})
	b.Run("cached", func(b *testing.B) {
		b.SetBytes(int64(len(ctx)))
		cpu0, ok := processCPU()
		for b.Loop() {
			Encode(ctx)
		}
		reportCPU(b, cpu0, ok)
	})
}

// BenchmarkPromptTokens measures templating a 3,000-token conversation
// whose messages were seen before (the simulator's common case).
func BenchmarkPromptTokens(b *testing.B) {
	msgs := benchRequest(benchContext("p")).Messages
	cpu0, ok := processCPU()
	for b.Loop() {
		PromptTokens(msgs)
	}
	reportCPU(b, cpu0, ok)
}

// BenchmarkPieces measures splitting a 1,000-token answer for streaming.
func BenchmarkPieces(b *testing.B) {
	ids := Compose(benchRequest(benchContext("s"))).Tokens
	b.ReportAllocs()
	cpu0, ok := processCPU()
	for b.Loop() {
		Pieces(ids)
	}
	reportCPU(b, cpu0, ok)
}
