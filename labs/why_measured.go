package labs

import "fmt"

// The why panels of figures measured on a real server say what was timed
// and where, and nothing of the roofline: that models the bundled engine,
// whose run on the same settings sits beside the measurement with its own
// panels, and a gap between the two is the model's error, not a part of
// the measured figure.

// besideNote points from a measured figure to the bundled engine's run.
const besideNote = "The bundled engine's roofline for these settings is in its own run, in the comparison below."

// MeasuredTTFT is the why of a time to first token of ttft ms measured on
// server (as live.Event.Server names it): the time from sending the
// request to the first chunk that carried a token, plus network ms the
// lab models on top (0 for none). thinking says that first token was a
// reasoning model's thinking, not answer.
func MeasuredTTFT(server string, ttft, network float64, thinking bool) Formula {
	f := Sum("ms", Term{Name: "sending to the first chunk", Value: ttft - network},
		Term{Name: "modelled network to the server and back", Value: network})
	f.Before = "Measured on " + server + ": the time from sending the request to the first chunk that carried a token."
	if thinking {
		f.Before += " That token was thinking, not answer: the first word waits for the answer's first token."
	}
	f.Before += " Time to first token ="
	f.After = besideNote
	return f
}

// MeasuredTPOT is the why of a time per output token measured on server:
// the time from the first token to the last, first and complete ms after
// the request was sent, over the tokens after the first. Thinking tokens
// count as any other: the server writes both one step at a time.
func MeasuredTPOT(server string, first, complete float64, tokens int) Formula {
	per := 0.0
	if tokens > 1 {
		per = (complete - first) / float64(tokens-1)
	}
	return Formula{Unit: "ms", Result: per,
		Before: "Measured on " + server + ": the time from the first token to the last, spread over the tokens after the first.",
		Expr:   fmt.Sprintf("(complete %s − first token %s) ÷ %s tokens", Figure(complete), Figure(first), Thousands(tokens-1)),
		Lead:   "It holds the server's own steps, its queue and the network, all as the run saw them",
		After:  besideNote}
}

// MeasuredDecode is the why of a decode time measured on server: the
// first token came first ms after the request was sent, the last
// complete ms after it. Nothing is modelled on top, and on a server the
// lab does not share, no other request's steps are in it to name.
func MeasuredDecode(server string, first, complete float64) Formula {
	return Formula{Unit: "ms", Result: complete - first,
		Before: "Measured on " + server + ": the time from the first token to the last. Decode time =",
		Expr:   "complete " + Figure(complete) + " − first token " + Figure(first),
		Lead:   "It holds the server's own steps, its queue and the network, all as the run saw them",
		After:  besideNote}
}
