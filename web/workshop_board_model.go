package web

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// boardCache is the part of a board built from the store, kept until the
// room changes, so a board update and every learner's revealed results
// cost one set of queries between changes, however many pages watch.
type boardCache struct{ live views.BoardLive }

// latestRunsOnBoard is how many finished runs the board lists.
const latestRunsOnBoard = 30

// boardLive builds the board's live panels.
func (s *Server) boardLive(ctx context.Context, r *room) (views.BoardLive, error) {
	r.mu.Lock()
	cached, ws, version := r.cache, r.ws, r.version
	r.mu.Unlock()
	var live views.BoardLive
	if cached != nil {
		live = cached.live
	} else {
		var err error
		if live, err = s.buildBoardLive(ctx, ws); err != nil {
			return views.BoardLive{}, err
		}
		r.mu.Lock()
		if r.version == version {
			r.cache = &boardCache{live: live}
		}
		r.mu.Unlock()
	}
	online := r.learners.online()
	live.Online = len(online)
	live.Roster = slices.Clone(live.Roster)
	for i := range live.Roster {
		live.Roster[i].Online = online[live.Roster[i].Learner()] > 0
	}
	live.Load = s.loadPanel(r, ws)
	live.Load.OnProvider = live.OnProvider
	return live, nil
}

func (s *Server) buildBoardLive(ctx context.Context, ws store.Workshop) (views.BoardLive, error) {
	members, err := s.store.Members(ctx, ws.Code)
	if err != nil {
		return views.BoardLive{}, err
	}
	var round []store.WorkshopRun
	if ws.PushSeq > 0 {
		if round, err = s.store.WorkshopRuns(ctx, ws.Code, store.WorkshopRunsFilter{Round: ws.PushSeq}); err != nil {
			return views.BoardLive{}, err
		}
	}
	latest, err := s.store.WorkshopRuns(ctx, ws.Code, store.WorkshopRunsFilter{Limit: latestRunsOnBoard})
	if err != nil {
		return views.BoardLive{}, err
	}
	live := views.BoardLive{Members: len(members), OnProvider: providerRuns(round)}
	byLearner := map[string][]store.WorkshopRun{}
	for _, run := range round {
		byLearner[run.Learner] = append(byLearner[run.Learner], run)
	}
	pushed := ""
	if lab, ok := s.cfg.Catalog.Get(ws.PushedLab); ok {
		pushed = lab.Info().Title
	}
	for _, m := range members {
		runs := byLearner[m.Learner]
		row := views.RosterRow{Name: m.Name, Joined: m.JoinedAt.Local().Format("15:04"), Lab: pushed, Runs: len(runs)}
		row.SetLearner(m.Learner)
		if len(runs) > 0 {
			live.Ran++
			last := runs[len(runs)-1]
			row.Latest = s.measured(last)
			if g, ok := countedGuess(ws, last); ok {
				row.Predicted = views.FormatValue(g, last.Summary.Prediction.Unit)
			}
			for _, run := range runs {
				row.History = append(row.History, s.runRow(run))
			}
		}
		live.Roster = append(live.Roster, row)
	}
	for _, run := range latest {
		live.Runs = append(live.Runs, s.runRow(run))
	}
	live.Results = s.roomResults(ws, members, byLearner)
	return live, nil
}

// countedGuess is a run's prediction, unless it was saved after the
// instructor closed predictions.
func countedGuess(ws store.Workshop, run store.WorkshopRun) (float64, bool) {
	p := run.Summary.Prediction
	if p == nil || (ws.Locked() && !run.CreatedAt.Before(ws.LockedAt)) {
		return 0, false
	}
	return p.Value, true
}

// headline is the stat a run is judged by: the one its lab asks learners
// to predict, else its first.
func (s *Server) headline(run store.WorkshopRun) (labs.Stat, bool) {
	key := ""
	if lab, ok := s.cfg.Catalog.Get(run.Lab); ok {
		key = lab.Info().PredictionStat
	}
	for _, st := range run.Summary.Stats {
		if st.Key == key {
			return st, true
		}
	}
	if len(run.Summary.Stats) > 0 {
		return run.Summary.Stats[0], true
	}
	return labs.Stat{}, false
}

func (s *Server) measured(run store.WorkshopRun) string {
	if run.Summary.Error != "" {
		return "failed"
	}
	if st, ok := s.headline(run); ok {
		return st.Label + " " + views.FormatValue(st.Value, st.Unit)
	}
	return "done"
}

func (s *Server) runRow(run store.WorkshopRun) views.RoomRunRow {
	row := views.RoomRunRow{Name: run.Name, Lab: run.Lab, Preset: run.Preset, Measured: s.measured(run),
		SharedWith: run.SharedWith, Provider: providerRate(run.Params), Engine: roomEngine(run.Params), At: run.CreatedAt.Local().Format("15:04:05"), Prediction: "—"}
	if lab, ok := s.cfg.Catalog.Get(run.Lab); ok {
		row.Lab = lab.Info().Title
	}
	if p := run.Summary.Prediction; p != nil {
		row.Prediction = views.FormatValue(p.Value, p.Unit)
	}
	return row
}

// roomResults sets each learner's latest guess this round against what
// the engine measured: a histogram of the guesses with the measured median
// and p95 marked on it, and a few sentences.
func (s *Server) roomResults(ws store.Workshop, members []store.Member, byLearner map[string][]store.WorkshopRun) views.RoomResults {
	names := map[string]string{}
	for _, m := range members {
		names[m.Learner] = m.Name
	}
	unit := ""
	var guesses, measured []float64
	closest, closestOff := "", math.Inf(1)
	for learner, runs := range byLearner {
		last := runs[len(runs)-1]
		st, ok := s.headline(last)
		if !ok || last.Summary.Error != "" {
			continue
		}
		unit = st.Unit
		measured = append(measured, st.Value)
		g, ok := countedGuess(ws, last)
		if !ok {
			continue
		}
		guesses = append(guesses, g)
		if off := math.Abs(g - st.Value); off < closestOff || (off == closestOff && names[learner] < closest) {
			closest, closestOff = names[learner], off
		}
	}
	res := views.RoomResults{Guesses: len(guesses), Measured: len(measured)}
	if len(measured) == 0 {
		return res
	}
	slices.Sort(guesses)
	slices.Sort(measured)
	mp50, mp95 := labs.Percentile(measured, 50), labs.Percentile(measured, 95)
	res.Summary = append(res.Summary, fmt.Sprintf("The runs measured a median of %s (from %s to %s) over %s.",
		views.FormatValue(mp50, unit), views.FormatValue(measured[0], unit), views.FormatValue(measured[len(measured)-1], unit), labs.Count(len(measured), "run")))
	if len(guesses) == 0 {
		return res
	}
	res.Summary = append(res.Summary,
		fmt.Sprintf("The room guessed a median of %s, spread from %s to %s.", views.FormatValue(labs.Percentile(guesses, 50), unit),
			views.FormatValue(guesses[0], unit), views.FormatValue(guesses[len(guesses)-1], unit)),
		fmt.Sprintf("Closest: %s, off by %s.", closest, views.FormatValue(closestOff, unit)))
	res.Chart = guessHistogram(guesses, unit, measuredMarks(mp50, mp95, unit))
	return res
}

// measuredMarks marks the measured median and p95 on the guesses chart:
// one mark when they read the same, so two labels never print over each
// other at one spot.
func measuredMarks(p50, p95 float64, unit string) []labs.Mark {
	if views.FormatValue(p50, unit) == views.FormatValue(p95, unit) {
		return []labs.Mark{{Label: "measured p50 and p95", At: p50}}
	}
	return []labs.Mark{{Label: "measured p50", At: p50}, {Label: "measured p95", At: p95}}
}

// guessHistogram bins the guesses into about ten bins spanning the
// guesses and the marks.
func guessHistogram(guesses []float64, unit string, marks []labs.Mark) labs.Chart {
	lo, hi := guesses[0], guesses[len(guesses)-1]
	for _, m := range marks {
		lo, hi = min(lo, m.At), max(hi, m.At)
	}
	width := labs.NiceStep((hi - lo) / 10)
	start := math.Floor(lo/width) * width
	counts := make([]int, int(math.Floor((hi-start)/width))+1)
	for _, g := range guesses {
		counts[min(int((g-start)/width), len(counts)-1)]++
	}
	return labs.Chart{ID: "ws-guesses-chart", Title: "The room's guesses, with what the runs measured", Kind: labs.ChartHistogram,
		XLabel: "guess", XUnit: unit, YLabel: "learners", Hist: &labs.Histogram{Start: start, BinWidth: width, Counts: counts, Marks: marks}}
}

// loadPanel reads the room's engine.
func (s *Server) loadPanel(r *room, ws store.Workshop) views.LoadPanel {
	eng := r.startedEngines()
	if eng == nil {
		return views.LoadPanel{LoadRPS: ws.LoadRPS}
	}
	p := views.LoadPanel{Started: true, Profile: s.roomProfile().String(), LoadRPS: eng.Load(), KVUse: "0%", TTFTp50: "—", TTFTp95: "—"}
	hist := eng.History()
	if len(hist) == 0 {
		return p
	}
	now := hist[len(hist)-1]
	p.Running, p.Waiting, p.Tenants = now.Running, now.Waiting, now.Tenants
	p.KVUse = fmt.Sprintf("%.0f%%", now.KVUsage*100)
	// The latest TTFTs are those of the last sample with finished runs.
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Finished > 0 {
			p.TTFTp50, p.TTFTp95 = views.FormatValue(hist[i].TTFTp50, "ms"), views.FormatValue(hist[i].TTFTp95, "ms")
			break
		}
	}
	var p50, p95, running, waiting []labs.Point
	t0 := hist[0].At
	for _, h := range hist {
		x := h.At.Sub(t0).Seconds()
		if h.Finished > 0 {
			p50 = append(p50, labs.Point{X: x, Y: h.TTFTp50})
			p95 = append(p95, labs.Point{X: x, Y: h.TTFTp95})
		}
		running = append(running, labs.Point{X: x, Y: float64(h.Running)})
		waiting = append(waiting, labs.Point{X: x, Y: float64(h.Waiting)})
	}
	p.HasChart = len(hist) > 1
	p.TTFT = labs.Chart{ID: "ws-ttft-chart", Title: "Room time to first token", Kind: labs.ChartLine, XLabel: "time", XUnit: "s",
		YLabel: "TTFT", YUnit: "ms", Series: []labs.Series{{Name: "p50", Points: p50}, {Name: "p95", Points: p95}}}
	p.Batch = labs.Chart{ID: "ws-batch-chart", Title: "Batch and queue", Kind: labs.ChartLine, XLabel: "time", XUnit: "s",
		YLabel: "requests", Series: []labs.Series{{Name: "running", Points: running}, {Name: "queued", Points: waiting}}}
	return p
}
