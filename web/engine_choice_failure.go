package web

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/views"
)

// serverFailure says why a run on the server failed, in the server's words
// when it answered with an error, without the client's internals. A server
// that ended an answer itself gets what to change: the lab's answer length
// (knobs, set to values) at or below what it wrote.
func serverFailure(u *labs.EngineChoice, err error, knobs []labs.Knob, values labs.Values) string {
	var se *upstream.ServerError
	if errors.As(err, &se) {
		return "That server refused the run: " + strings.TrimRight(truncateRunes(se.Message, 200), ".") + "."
	}
	var short *upstream.ShortAnswer
	if errors.As(err, &short) {
		return shortAnswerAdvice(short, knobs, values)
	}
	return "That server (" + u.Label + ") could not be reached or broke off the answer. Check that it is running, or switch the engine back to the bundled one."
}

// shortAnswerAdvice explains a server that stops at its own end of answer
// (no ignore_eos) and says how long an answer to ask for instead.
func shortAnswerAdvice(short *upstream.ShortAnswer, knobs []labs.Knob, values labs.Values) string {
	what := fmt.Sprintf("That server ends its answers itself and wrote %s tokens where this run asks for %s: it does not honour ignore_eos (Ollama does not), so it cannot write an answer of a set length. No figures are shown, because they would be a shorter answer's.",
		labs.Thousands(short.Wrote), labs.Thousands(short.Asked))
	k, ok := answerKnob(knobs, values, short.Asked)
	if !ok {
		return what + fmt.Sprintf(" Ask for %s tokens or fewer to run on it, or pick the bundled engine.", labs.Thousands(short.Wrote))
	}
	step := max(k.Step, 1)
	fit := k.Min + math.Floor((float64(short.Wrote)-k.Min)/step)*step
	if fit < k.Min || short.Wrote == 0 {
		return what + fmt.Sprintf(" This lab's %s goes no lower than %s, so pick the bundled engine, or a server that honours ignore_eos (vLLM, SGLang, llama.cpp).",
			k.Label, views.FormatValue(k.Min, k.Unit))
	}
	return what + fmt.Sprintf(" Set %s to %s or fewer to run on it.", k.Label, views.FormatValue(fit, k.Unit))
}

// answerKnob is the lab's answer-length knob when its value is the
// length the failed call asked for.
func answerKnob(knobs []labs.Knob, values labs.Values, asked int) (labs.Knob, bool) {
	for _, k := range knobs {
		if k.Kind == labs.KnobRange && k.Unit == "tokens" && k.Label == "Answer length" {
			v, ok := values[k.Name].(float64)
			return k, ok && int(v) == asked
		}
	}
	return labs.Knob{}, false
}
