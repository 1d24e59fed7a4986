package timeouts

import (
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

func knobs() []labs.Knob {
	backups := []labs.Option{{Value: backupNone, Label: "None"}}
	for _, o := range pipelinelab.TierOptions() {
		if o.Value != primary {
			backups = append(backups, o)
		}
	}
	return []labs.Knob{
		{Name: knobFault, Label: "Slowdown on the primary model", Kind: labs.KnobEnum, Default: faultSlow,
			Help: "What goes wrong with the medium tier for the affected calls.",
			Options: []labs.Option{
				{Value: faultNone, Label: "None"},
				{Value: faultSlow, Label: "Slow first token"},
				{Value: faultStall, Label: "Stall mid-stream (after 20 tokens)"},
				{Value: faultRefuse, Label: "Refuse the call (503)"},
			}},
		{Name: knobSlowBy, Label: "Slowdown length", Kind: labs.KnobRange, Unit: "s", Min: 1, Max: 30, Step: 0.5,
			Default: 8.0, Help: "How long an affected call stays silent, before its first token or in the middle."},
		{Name: knobShare, Label: "Share of calls slowed", Kind: labs.KnobRange, Unit: "%", Min: 0, Max: 100, Step: 5,
			Default: 30.0, Help: "Which fraction of the batch meets the slowdown; the rest are healthy."},
		{Name: knobFTT, Label: "First-token timeout", Kind: labs.KnobRange, Unit: "s", Min: 0, Max: 30, Step: 0.5,
			Default: 0.0, Help: "Give up on a tier that has sent nothing after this long and try the backup (0: none)."},
		{Name: knobOverall, Label: "Overall timeout", Kind: labs.KnobRange, Unit: "s", Min: 0, Max: 60, Step: 0.5,
			Default: 0.0, Help: "Cut the model call off after this long, retries included, keeping what was written (0: none)."},
		{Name: knobDeadline, Label: "Request deadline", Kind: labs.KnobRange, Unit: "s", Min: 0, Max: 60, Step: 1,
			Default: 0.0, Help: "The whole request's allowance, shared by every step and retry (0: none)."},
		{Name: knobBackup, Label: "Backup tier", Kind: labs.KnobEnum, Default: pipelinelab.TierSmall, Options: backups,
			Help: "Where a call goes after a first-token timeout or a refusal."},
		{Name: knobRequests, Label: "Requests", Kind: labs.KnobRange, Unit: "requests", Min: 10, Max: 50, Step: 1,
			Default: 20.0, Help: "Requests in the batch; they start 100 ms apart and run at the same time."},
		{Name: knobAnswer, Label: "Answer length", Kind: labs.KnobRange, Unit: "tokens", Min: 20, Max: 800, Step: 10,
			Default: 200.0, Help: "Tokens each answer has; a longer answer takes longer to write."},
	}
}

func presets() []labs.Preset {
	p := func(name, note, fault string, slowBy, ftt, overall, deadline, answer float64) labs.Preset {
		return labs.Preset{Name: name, Note: note, Values: labs.Values{
			knobFault: fault, knobSlowBy: slowBy, knobShare: 30.0, knobFTT: ftt, knobOverall: overall,
			knobDeadline: deadline, knobBackup: pipelinelab.TierSmall, knobRequests: 20.0, knobAnswer: answer,
		}}
	}
	return []labs.Preset{
		p("Provider slowdown, no timeout",
			"Three calls in ten wait out the slow provider: the p95 first word is the slowdown itself.",
			faultSlow, 8, 0, 0, 0, 200),
		p("5 s first-token timeout with fallback",
			"The slowed calls give up after 5 s and move to the small tier: slower first words, no errors.",
			faultSlow, 8, 5, 20, 20, 200),
		p("Web-service timeout (1 s)",
			"A one-second limit on the whole call cuts off healthy answers that were simply still being written.",
			faultSlow, 8, 0, 1, 0, 200),
		p("Shared 20 s deadline with a retry at 18 s",
			"The retry starts at second 18 and gets only the 2 s that remain of the deadline, not a fresh 20: long answers are cut there.",
			faultSlow, 25, 18, 0, 20, 600),
	}
}

// settings are one run's parsed knob values.
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
}

// parse validates v against the knobs (so a caller that skipped
// labs.Validate is still refused) and converts it.
func parse(v labs.Values) (settings, error) {
	vals, errs := labs.Validate(knobs(), v)
	if len(errs) > 0 {
		return settings{}, labs.JoinFieldErrors(errs)
	}
	sec := func(name string) time.Duration { return time.Duration(vals.Float(name) * float64(time.Second)) }
	s := settings{
		fault: vals.String(knobFault), slowBy: sec(knobSlowBy), sharePct: vals.Int(knobShare),
		ftt: sec(knobFTT), overall: sec(knobOverall), deadline: sec(knobDeadline),
		backup: vals.String(knobBackup), requests: vals.Int(knobRequests), answer: vals.Int(knobAnswer),
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
