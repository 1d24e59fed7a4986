package practice

import (
	"fmt"
	"math/rand/v2"
	"time"
)

var streamingTemplates = []Template{
	{ID: "proxy-buffer", Lesson: "streaming-through-the-stack", Title: "A proxy that buffers", Unit: Duration,
		Lab: "streaming", Preset: "Streaming on an H100",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			kb := between(r, 1, 4, 1)
			k := kb * 1000 / charsPerToken
			res, err := simulateOne(s.cfg, 1200, k+5)
			if err != nil {
				return Problem{}, err
			}
			at := res.TokenTimes[k-1] - res.Arrival
			return Problem{
				Question: fmt.Sprintf("A proxy in front of %s holds the stream until it has %d KB to send (about %d characters per token). The prompt is 1,200 tokens. When does the user see the first text?", s.d, kb, charsPerToken),
				Given:    given("Deployment", s.d.String(), "Proxy buffer", fmt.Sprintf("%d KB", kb), "Prompt", "1,200 tokens"),
				Answer:   secs(at),
				env:      env{cfg: s.cfg, prompt: 1200, timing: true, tokens: k},
				Steps: []Step{
					stepf("Tokens to fill the buffer", "%d KB × 1,000 ÷ %d = %s tokens", kb, charsPerToken, fmtInt(k)),
					stepf("First token (engine)", "TTFT = %s", fmtDur(res.TTFT())),
					stepf("Then the rest of the buffer", "%s + (%s − 1) × %s ≈ %s", fmtDur(res.TTFT()), fmtInt(k), fmtDur(tpot(res)), fmtDur(at)),
				},
			}, nil
		}},
	{ID: "wasted-tokens", Lesson: "streaming-through-the-stack", Title: "Tokens paid for after the user left", Unit: Tokens,
		Lab: "cancellation", Preset: "Leave without propagating cancellation",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			out := between(r, 300, 1000, 50)
			res, err := simulateOne(s.cfg, 1000, out)
			if err != nil {
				return Problem{}, err
			}
			leave := res.TTFT() + (res.E2E()-res.TTFT())*time.Duration(between(r, 2, 6, 1))/10
			seen := 0
			for _, t := range res.TokenTimes {
				if t-res.Arrival <= leave {
					seen++
				}
			}
			wasted := out - seen
			return Problem{
				Question: fmt.Sprintf("A user closes the tab %s after sending a 1,000-token prompt to %s. The cancel never reaches the model, which writes its full %s-token answer. How many tokens are generated after the user left?", fmtDur(leave), s.d, fmtInt(out)),
				Given:    given("Deployment", s.d.String(), "Answer", fmtInt(out)+" tokens", "User leaves at", fmtDur(leave)),
				Answer:   float64(wasted),
				env:      env{cfg: s.cfg, prompt: 1000, output: out, limit: leave},
				Steps: []Step{
					stepf("First token (engine)", "TTFT = %s, then TPOT %s", fmtDur(res.TTFT()), fmtDur(tpot(res))),
					stepf("Written before leaving", "1 + (%s − %s) ÷ %s ≈ %s tokens", fmtDur(leave), fmtDur(res.TTFT()), fmtDur(tpot(res)), fmtInt(seen)),
					stepf("Wasted", "%s − %s = %s tokens", fmtInt(out), fmtInt(seen), fmtInt(wasted)),
				},
			}, nil
		}},
	{ID: "usage-bill", Lesson: "streaming-through-the-stack", Title: "Tokens billed for a day of abandoned streams", Unit: Tokens,
		Lab: "cancellation", Preset: "Leave after 20 tokens",
		draw: func(r *rand.Rand) (Problem, error) {
			n := between(r, 1000, 20000, 1000)
			share := between(r, 5, 30, 5)
			out, seen := between(r, 300, 900, 50), between(r, 20, 100, 10)
			wasted := float64(n) * float64(share) / 100 * float64(out-seen)
			return Problem{
				Question: fmt.Sprintf("Of %s streamed answers a day, %d%% are abandoned after %d tokens but run on to %s tokens because cancellation is not passed on. How many output tokens a day are written for nobody?", fmtInt(n), share, seen, fmtInt(out)),
				Given:    given("Answers a day", fmtInt(n), "Abandoned", fmt.Sprintf("%d%%", share), "Seen / written", fmt.Sprintf("%d / %s tokens", seen, fmtInt(out))),
				Answer:   wasted,
				env:      env{batch: n, share: float64(share) / 100, output: out, tokens: seen},
				Steps: []Step{
					stepf("Abandoned answers", "%s × %d%% = %s", fmtInt(n), share, sig(float64(n)*float64(share)/100)),
					stepf("Unread tokens each", "%s − %d = %s", fmtInt(out), seen, fmtInt(out-seen)),
					stepf("A day", "%s × %s = %s tokens", sig(float64(n)*float64(share)/100), fmtInt(out-seen), sig(wasted)),
				},
			}, nil
		}},
}
