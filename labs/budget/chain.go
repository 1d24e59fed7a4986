package budget

import (
	"errors"
	"fmt"
	"sort"

	"github.com/latencylab/latencylab/engine"
)

// callTimes are one batch request's engine times: its answer call's and,
// with two calls, its second call's.
type callTimes struct {
	answer, second engine.Timing
}

// simulateCalls runs every request's model calls on one engine on the
// virtual clock. answers[i] arrives at its Arrival; with seconds set,
// seconds[i] arrives then too, and in sequence the answer is sent only
// when its second call ends, so it waits for it, while together both
// share the engine's batch from the start. Engine.Simulate cannot send a
// request when another ends, so this drives the engine step by step.
func simulateCalls(cfg engine.Config, answers, seconds []engine.Request, sequence bool) ([]callTimes, error) {
	e, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	type call struct {
		req    engine.Request
		i      int
		second bool
	}
	var arrivals []call
	for i, r := range answers {
		if seconds != nil {
			arrivals = append(arrivals, call{req: seconds[i], i: i, second: true})
		}
		if seconds == nil || !sequence {
			arrivals = append(arrivals, call{req: r, i: i})
		}
	}
	sort.SliceStable(arrivals, func(a, b int) bool { return arrivals[a].req.Arrival < arrivals[b].req.Arrival })
	var bySerial []call
	add := func(c call) error {
		bySerial = append(bySerial, c)
		return e.Add(c.req)
	}
	out := make([]callTimes, len(answers))
	next, done := 0, 0
	for done < len(answers) {
		for next < len(arrivals) && arrivals[next].req.Arrival <= e.Now() {
			if err := add(arrivals[next]); err != nil {
				return nil, err
			}
			next++
		}
		at, ok := e.NextStepAt()
		if !ok || at > e.Now() {
			switch {
			case next < len(arrivals) && (!ok || arrivals[next].req.Arrival < at):
				e.AdvanceTo(arrivals[next].req.Arrival)
			case ok:
				e.AdvanceTo(at)
			default:
				return nil, errors.New("simulate calls: the engine stalled")
			}
			continue
		}
		step := e.Step()
		for _, f := range step.Finished {
			c := bySerial[f.Serial]
			if !c.second {
				out[c.i].answer = f.Timing
				done++
				continue
			}
			out[c.i].second = f.Timing
			if sequence {
				r := answers[c.i]
				r.Arrival = e.Now()
				if err := add(call{req: r, i: c.i}); err != nil {
					return nil, fmt.Errorf("simulate calls: %w", err)
				}
			}
		}
	}
	return out, nil
}
