package web

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// runNote tells a learner where their run ran. It gives no count of its
// own: the lab's result already says how many requests shared the GPU,
// and a second figure taken another way (the room's busiest batch, say)
// would contradict it on the same page. rate is the hosted provider's
// own tenant traffic (0: the run was on the room's engine); load is the
// room's load dial; elsewhere names the room engine the run used when it
// is not the main one the dial drives ("" when it is).
func runNote(rate, load float64, elsewhere string, at time.Time) string {
	when := at.Local().Format("15:04:05")
	if rate > 0 {
		return fmt.Sprintf("Your run at %s ran on a simulated hosted provider with %s requests/s of its own tenants, not on the room's engine: "+
			"the load dial did not reach it, and the requests its result says shared the GPU were those tenants.", when, views.FormatPlain(rate))
	}
	if elsewhere != "" {
		note := fmt.Sprintf("Your run at %s ran on the room's %s engine, in the same batches as any runs of the class on that model and GPU at that moment.", when, elsewhere)
		if load > 0 {
			note += fmt.Sprintf(" The %s requests/s of your instructor's load dial go to the room's main engine, not to this one.", views.FormatPlain(load))
		}
		return note
	}
	if load > 0 {
		return fmt.Sprintf("Your run at %s ran on the room's shared engine, in the same batches as the rest of the class and the %s requests/s your instructor's load dial adds.",
			when, views.FormatPlain(load))
	}
	return fmt.Sprintf("Your run at %s ran on the room's shared engine, in the same batches as any other runs of the class at that moment.", when)
}

// roomEngine names the room engine a run's settings chose ("llama-3.1-8b
// on a100-80g"), from the model and GPU knobs the engine labs share; ""
// when its lab has no such knobs.
func roomEngine(params labs.Values) string {
	model, _ := params["model"].(string)
	gpu, _ := params["gpu"].(string)
	if model == "" || gpu == "" {
		return ""
	}
	return model + " on " + gpu
}

// otherRoomEngine names the room engine a run's settings chose when it is
// not the main one, which the load dial drives; "" when it is the main
// one or the lab names no engine.
func (s *Server) otherRoomEngine(params labs.Values) string {
	p := s.roomProfile()
	if e := roomEngine(params); e != p.Model+" on "+p.Hardware {
		return e
	}
	return ""
}

// providerRuns counts the runs that went to a hosted provider of their
// own.
func providerRuns(runs []store.WorkshopRun) int {
	n := 0
	for _, run := range runs {
		if providerRate(run.Params) > 0 {
			n++
		}
	}
	return n
}

// presetProvider is the hosted provider traffic that the named preset of
// the named lab sets; 0 when it keeps its runs on the room's engine.
func presetProvider(cat *labs.Catalog, slug, preset string) float64 {
	lab, ok := cat.Get(slug)
	if !ok {
		return 0
	}
	for _, p := range lab.Presets() {
		if p.Name == preset {
			return providerRate(p.Values)
		}
	}
	return 0
}

// roundFor is the learner's round line for the room's state.
func roundFor(ws store.Workshop, cat *labs.Catalog) views.WorkshopRound {
	r := views.WorkshopRound{Round: ws.PushSeq, Locked: ws.Locked(), Ended: ws.Ended()}
	if _, ok := cat.Get(ws.PushedLab); ok {
		r.Preset = ws.PushedPreset
		r.Provider = presetProvider(cat, ws.PushedLab, ws.PushedPreset)
	}
	return r
}

// boardOneColumn is the board's width (CSS px) below which its charts sit
// one to a row (app.css .charts: two columns need 2 × 25rem and a gap).
const boardOneColumn = 816

// boardChartContext lays the board's charts out for a narrow board (a
// phone) whose live panels are px wide, so they are drawn for that width
// instead of a desktop layout shrunk to unreadable text. Wider boards
// keep the default layout, which fits their half-width columns.
func boardChartContext(ctx context.Context, px float64) context.Context {
	if px <= 0 || px >= boardOneColumn {
		return ctx
	}
	return chartContext(ctx, []byte(strconv.FormatFloat(px, 'f', -1, 64)))
}
