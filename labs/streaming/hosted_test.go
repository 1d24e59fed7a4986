package streaming

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// The hosted preset lands within 15% of the lesson's hosted tier (first
// token at 600 ms, 80 tokens a second) because of what it models: three
// round trips of 190 ms before the first token (a fresh connection, the
// upload, the way back), and nine other chats a second sharing each decode
// step. Switching each cause off removes its share: the network its round
// trips from the first token and nothing from the speed; the tenants most
// of the slowdown.
func TestHostedPresetReproducesTheLesson(t *testing.T) {
	hosted := labtest.PresetWith(t, labtest.Inert(t, define), hostedPreset)
	onPool := func(pool *labs.Engines) labs.Lab { return mustNew(t, Config{Engines: pool, Tick: -1}) }
	run := func(changes labs.Values) map[string]float64 {
		return labtest.StatMap(t, labtest.FinalFrame(t, onPool, hosted(changes)))
	}
	all := run(nil)
	if got := all[statTTFT]; got < 0.85*600 || got > 1.15*600 {
		t.Errorf("first token %.0f ms, want the lesson's 600 ms within 15%%", got)
	}
	if got := all[statTokPerS]; got < 0.85*80 || got > 1.15*80 {
		t.Errorf("%.1f tokens/s, want the lesson's 80 within 15%%", got)
	}
	noNet := run(labs.Values{pipelinelab.KnobRTT: 0.0})
	kept := run(labs.Values{pipelinelab.KnobFresh: false})
	alone := run(labs.Values{pipelinelab.KnobTenants: 0.0})
	idle := run(labs.Values{pipelinelab.KnobRTT: 0.0, pipelinelab.KnobTenants: 0.0})
	t.Logf("hosted: first token %.0f ms, %.1f tok/s; no network %.0f ms, %.1f tok/s; kept-alive %.0f ms; no tenants %.0f ms, %.1f tok/s; idle %.0f ms, %.1f tok/s",
		all[statTTFT], all[statTokPerS], noNet[statTTFT], noNet[statTokPerS], kept[statTTFT], alone[statTTFT], alone[statTokPerS], idle[statTTFT], idle[statTokPerS])
	if d := alone[statTTFT] - idle[statTTFT]; d < 3*190-1 || d > 3*190+1 {
		t.Errorf("the network adds %.1f ms to the first token, want three 190 ms round trips", d)
	}
	// The figures the lessons quote from this preset: the GPU alone, and
	// the hosted tier with its connection kept open.
	for _, f := range []struct {
		name      string
		got, want float64
	}{{"idle first token (ms)", idle[statTTFT], 30}, {"idle speed (tok/s)", idle[statTokPerS], 128}, {"kept-alive first token (ms)", kept[statTTFT], 220}} {
		if f.got < 0.85*f.want || f.got > 1.15*f.want {
			t.Errorf("%s = %.1f, want about %v as the lessons say", f.name, f.got, f.want)
		}
	}
	if alone[statTokPerS] != idle[statTokPerS] {
		t.Errorf("the network changed the speed: %.2f against %.2f tok/s", alone[statTokPerS], idle[statTokPerS])
	}
	if !(idle[statTokPerS] > 1.3*all[statTokPerS]) {
		t.Errorf("alone the GPU writes %.1f tok/s, with tenants %.1f: want the tenants to cost a good share", idle[statTokPerS], all[statTokPerS])
	}
	// The request meets the same traffic with or without the network, so
	// the network's share is exactly its round trips.
	if d := all[statTTFT] - noNet[statTTFT]; d < 3*190-1 || d > 3*190+1 || noNet[statTokPerS] != all[statTokPerS] {
		t.Errorf("network off: first token %.0f ms (%.1f tok/s), on %.0f ms (%.1f tok/s): want exactly three round trips less and the same speed",
			noNet[statTTFT], noNet[statTokPerS], all[statTTFT], all[statTokPerS])
	}
	if d := all[statTTFT] - kept[statTTFT]; d < 2*190-1 || d > 2*190+1 {
		t.Errorf("a kept-alive connection saves %.1f ms, want the two handshake round trips", d)
	}
}
