package labs

import (
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// BusyShare is how much later than the modelled GPU, as a share of the
// run's GPU time, a token may reach the handler before the learner is told
// the server was busy. Below it the lag is scheduling noise.
const BusyShare = 0.03

// busyFloor keeps sub-millisecond lags on very short runs from raising the
// note.
const busyFloor = time.Millisecond

// Delivery compares, token by token, when the modelled GPU made a token
// with when the handler received it. A lab's figures come from the GPU's
// times (live.Event.GPU), so a busy host (a workshop server, a loaded
// laptop) cannot bend them; Delivery keeps what the host added so the
// learner can be told. The zero value is ready to use.
type Delivery struct {
	maxLag time.Duration
	gpuEnd time.Duration
	// worst names what ran latest ("" for a token); the note names it.
	worst string
}

// Observe records one token: gpu is its modelled time since the request
// arrived, handler the time since the request was sent at which the
// handler received it.
func (d *Delivery) Observe(gpu, handler time.Duration) { d.ObserveOf("", gpu, handler) }

// ObserveOf records one moment that is not a token reaching the handler,
// such as a stage or a check ending: what names it for the learner ("a
// moderation check"), modelled is its time on the modelled timeline and
// handler when the handler saw it. The note then names what ran late
// instead of blaming the tokens.
func (d *Delivery) ObserveOf(what string, modelled, handler time.Duration) {
	if lag := handler - modelled; lag > d.maxLag {
		d.maxLag, d.worst = lag, what
	}
	d.gpuEnd = max(d.gpuEnd, modelled)
}

// Merge adds what o saw, for a run of several requests in a row.
func (d *Delivery) Merge(o Delivery) {
	if o.maxLag > d.maxLag {
		d.maxLag, d.worst = o.maxLag, o.worst
	}
	d.gpuEnd = max(d.gpuEnd, o.gpuEnd)
}

// MaxLag is the most any event reached the handler after the GPU made it.
func (d *Delivery) MaxLag() time.Duration { return d.maxLag }

// BusyNote is a note for the learner when the host delayed some token by
// more than BusyShare of the run's GPU time; "" otherwise. Every lab's
// figures are the modelled times, so the note says the delay is not in them.
func (d *Delivery) BusyNote() string {
	if d.maxLag < busyFloor || d.gpuEnd <= 0 || float64(d.maxLag) <= BusyShare*float64(d.gpuEnd) {
		return ""
	}
	lag, share := FormatMS(Millis(d.maxLag)), 100*float64(d.maxLag)/float64(d.gpuEnd)
	if d.worst != "" {
		return fmt.Sprintf("This server was busy: %s finished up to %s later than the model says it should (%.0f%% of the run's modelled time). "+
			"The figures are the modelled times, so the delay is not in them.", d.worst, lag, share)
	}
	return fmt.Sprintf("This server was busy: tokens reached you up to %s after the GPU made them (%.0f%% of the GPU's time). "+
		"The figures are the GPU's own times, so the delay is not in them.", lag, share)
}

// Alone is the first-token and end-to-end time of req on an idle engine of
// configuration cfg, on the virtual clock: what the request would have
// taken with the GPU to itself. ok is false when the engine refuses it.
func Alone(cfg engine.Config, req engine.Request) (ttft, e2e time.Duration, ok bool) {
	res, err := engine.Simulate(cfg, []engine.Request{req}, engine.SimOptions{})
	if err != nil || len(res.Requests) != 1 {
		return 0, 0, false
	}
	r := res.Requests[0]
	return r.TTFT(), r.E2E(), true
}

// SharingNote tells the learner whose requests shared the GPU with theirs
// on a shared engine and what it cost: addedTTFT and addedE2E are the
// modelled first-token and total times minus the same request's alone (see
// Alone). It is "" when the request ran alone.
func SharingNote(sh live.Sharing, addedTTFT, addedE2E time.Duration) string {
	if sh.Others == 0 {
		return ""
	}
	// The peak batch counts yours too; the note counts the others, as a
	// workshop board does ("up to 11 others"), so the two read alike.
	who := fmt.Sprintf("%s shared the GPU with yours (up to %s of them in one batch with it)",
		Count(sh.Others, "other request"), Thousands(max(sh.MaxBatch-1, 1)))
	if sh.Others == 1 {
		who = "1 other request shared the GPU with yours, in one batch with it"
	}
	if addedTTFT < busyFloor && addedE2E < busyFloor {
		return fmt.Sprintf("%s, at no measurable cost to it.", who)
	}
	return fmt.Sprintf("%s, which added ~%s to your first token and ~%s to the whole answer.",
		who, FormatMS(Millis(max(addedTTFT, 0))), FormatMS(Millis(max(addedE2E, 0))))
}

// OthersNote names how many other requests shared the GPU with a run
// whose cost cannot be set against a run alone; "" for none.
func OthersNote(others int) string {
	if others <= 0 {
		return ""
	}
	return fmt.Sprintf("%s shared the GPU with this run.", Count(others, "other request"))
}

// JoinNotes appends the non-empty notes to a status line, one sentence
// after another.
func JoinNotes(status string, notes ...string) string {
	for _, n := range notes {
		if n != "" {
			status += " " + n
		}
	}
	return status
}
