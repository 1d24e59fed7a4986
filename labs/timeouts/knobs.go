package timeouts

import (
	"context"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Knob names (Datastar signals).
const (
	knobFault    = "fault"
	knobSlowBy   = "slowBy"
	knobShare    = "slowShare"
	knobFTT      = "firstTokenTimeout"
	knobOverall  = "overallTimeout"
	knobDeadline = "deadline"
	knobBackup   = "backup"
	knobRequests = "requests"
	knobAnswer   = "answerTokens"
)

// Faults the primary tier can suffer.
const (
	faultNone   = "none"
	faultSlow   = "slow"
	faultStall  = "stall"
	faultRefuse = "refuse"
)

// primary is the tier every request asks first.
const primary = pipelinelab.TierMedium

// stallAfter is how many tokens a stalling call writes before it stops.
const stallAfter = 20

// backupNone is the backup knob's "no backup" value.
const backupNone = "none"

// params are the lab's settings, one field per knob (the page's signals).
type params struct {
	fault                          string
	slowBy, ftt, overall, deadline float64 // seconds
	backup                         string
	share, requests, answer        int // share in %
	// host is where the tiers run: next door (Idle) or at a provider.
	host pipelinelab.Hosting
}

// defaults are the settings of the default preset.
var defaults = params{fault: faultSlow, slowBy: 8, share: 30, backup: pipelinelab.TierSmall, requests: 20, answer: 200,
	host: pipelinelab.Idle}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	backups := []labs.Option{{Value: backupNone, Label: "None"}}
	for _, o := range pipelinelab.TierOptions() {
		if o.Value != primary {
			backups = append(backups, o)
		}
	}
	preset := func(slowBy, ftt, overall, deadline float64, answer int) params {
		p := defaults
		p.slowBy, p.ftt, p.overall, p.deadline, p.answer = slowBy, ftt, overall, deadline, answer
		return p
	}
	hosted := preset(8, 5, 20, 20, 200)
	hosted.host = pipelinelab.AsInTheLesson
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: append([]labs.Field[params]{
			labs.Bind(labs.Knob{Name: knobFault, Label: "Slowdown on the primary model",
				Help: "What goes wrong with the medium tier for the affected calls.",
				Options: []labs.Option{
					{Value: faultNone, Label: "None"},
					{Value: faultSlow, Label: "Slow first token"},
					{Value: faultStall, Label: "Stall mid-stream (after 20 tokens)"},
					{Value: faultRefuse, Label: "Refuse the call (503)"},
				}}, func(p *params) *string { return &p.fault }),
			labs.Bind(labs.Knob{Name: knobSlowBy, Label: "Slowdown length", Unit: "s", Min: 1, Max: 30, Step: 0.5,
				Help: "How long an affected call stays silent, before its first token or in the middle."}, func(p *params) *float64 { return &p.slowBy }),
			labs.Bind(labs.Knob{Name: knobShare, Label: "Share of calls slowed", Unit: "%", Min: 0, Max: 100, Step: 5,
				Help: "Which fraction of the batch meets the slowdown; the rest are healthy."}, func(p *params) *int { return &p.share }),
			labs.Bind(labs.Knob{Name: knobFTT, Label: "First-token timeout", Unit: "s", Min: 0, Max: 30, Step: 0.5,
				Help: "Give up on a tier that has sent nothing after this long and try the backup (0: none)."}, func(p *params) *float64 { return &p.ftt }),
			labs.Bind(labs.Knob{Name: knobOverall, Label: "Overall timeout", Unit: "s", Min: 0, Max: 60, Step: 0.5,
				Help: "Cut the model call off after this long, retries included, keeping what was written (0: none)."}, func(p *params) *float64 { return &p.overall }),
			labs.Bind(labs.Knob{Name: knobDeadline, Label: "Request deadline", Unit: "s", Min: 0, Max: 60, Step: 1,
				Help: "The whole request's allowance, shared by every step and retry (0: none)."}, func(p *params) *float64 { return &p.deadline }),
			labs.Bind(labs.Knob{Name: knobBackup, Label: "Backup tier", Options: backups,
				Help: "Where a call goes after a first-token timeout or a refusal."}, func(p *params) *string { return &p.backup }),
			labs.Bind(labs.Knob{Name: knobRequests, Label: "Requests", Unit: "requests", Min: 10, Max: 50, Step: 1,
				Help: "Requests in the batch; they start 100 ms apart and run at the same time."}, func(p *params) *int { return &p.requests }),
			labs.Bind(labs.Knob{Name: knobAnswer, Label: "Answer length", Unit: "tokens", Min: 20, Max: 800, Step: 10,
				Help: "Tokens each answer has; a longer answer takes longer to write."}, func(p *params) *int { return &p.answer }),
		}, pipelinelab.HostingKnobs(func(p *params) *pipelinelab.Hosting { return &p.host })...),
		Presets: []labs.Example[params]{
			{Name: "Provider slowdown, no timeout", Params: preset(8, 0, 0, 0, 200),
				Note: "Three calls in ten wait out the slow provider: the p95 first word is the slowdown itself."},
			{Name: "5 s first-token timeout with fallback", Params: preset(8, 5, 20, 20, 200),
				Note: "The slowed calls give up after 5 s and move to the small tier: slower first words, no errors."},
			{Name: "Web-service timeout (1 s)", Params: preset(8, 0, 1, 0, 200),
				Note: "A one-second limit on the whole call cuts off healthy answers that were simply still being written."},
			{Name: "Shared 20 s deadline with a retry at 18 s", Params: preset(25, 18, 0, 20, 600),
				Note: "The checks before the call take about 0.2 s, so the 18 s first-token timeout fires near second 18.2 and the retry gets only the 1.8 s left of the 20 s deadline, not a fresh 20: long answers are cut there."},
			{Name: hostedPreset, Params: hosted,
				Note: "The 5 s timeout in front of hosted tiers (190 ms away, a new connection per call, nine other chats a second on each GPU): " +
					"the slowed calls show their first word at 5 s plus the backup's hosted first word, under 6 s, and every healthy call completes."},
		},
		Run: run,
	})
}

// hostedPreset is the 5 s first-token timeout in front of hosted tiers.
const hostedPreset = "5 s first-token timeout on hosted tiers"

// Check has no rule across knobs: each knob's own range suffices.
func (p params) Check() []labs.FieldError { return nil }

// settings are one run's params in the lab's own types.
type settings struct {
	fault    string
	slowBy   time.Duration
	sharePct int // 0..100
	ftt      time.Duration
	overall  time.Duration
	deadline time.Duration
	backup   string // "" when none
	requests int
	answer   int
	host     pipelinelab.Hosting
}

// settings converts checked params.
func (p params) settings() (settings, error) {
	sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	s := settings{
		fault: p.fault, slowBy: sec(p.slowBy), sharePct: p.share,
		ftt: sec(p.ftt), overall: sec(p.overall), deadline: sec(p.deadline),
		backup: p.backup, requests: p.requests, answer: p.answer, host: p.host,
	}
	if s.backup == backupNone {
		s.backup = ""
	}
	return s, nil
}

// slowed reports whether request i of n meets the fault: the affected
// requests are spread evenly through the batch, the same ones in every
// setting, so the comparison is on the same injected fault.
func (s settings) slowed(i int) bool {
	if s.fault == faultNone {
		return false
	}
	return (i+1)*s.sharePct/100 > i*s.sharePct/100
}
