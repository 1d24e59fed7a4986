package web

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
)

// exportHeader names the CSV's columns.
var exportHeader = []string{"name", "lab", "preset", "round", "prediction", "prediction_unit", "measured_stat", "measured", "unit", "stats", "shared_batch_with", "status", "time", "ran_on"}

// handleWorkshopExport serves GET /workshops/{code}/export.csv: one row
// per run made in the room.
func (s *Server) handleWorkshopExport(c echo.Context) error {
	r, ws, err := s.instructorRoom(c)
	if err != nil {
		return err
	}
	runs, err := s.store.WorkshopRuns(c.Request().Context(), r.code, store.WorkshopRunsFilter{})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(exportHeader) // writes to a buffer cannot fail
	for _, run := range runs {
		_ = w.Write(s.exportRow(run))
	}
	w.Flush()
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="workshop-%s.csv"`, ws.Code))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

func (s *Server) exportRow(run store.WorkshopRun) []string {
	row := []string{run.Name, run.Lab, run.Preset, strconv.FormatInt(run.PushSeq, 10), "", "", "", "", "", "", strconv.Itoa(run.SharedWith), run.Summary.Status, run.CreatedAt.UTC().Format(time.RFC3339), "room"}
	if providerRate(run.Params) > 0 {
		row[13] = "hosted_provider" // shared_batch_with then counts the provider's batch
	}
	if p := run.Summary.Prediction; p != nil {
		row[4], row[5] = strconv.FormatFloat(p.Value, 'f', -1, 64), p.Unit
	}
	if st, ok := s.headline(run); ok && run.Summary.Error == "" {
		row[6], row[7], row[8] = st.Key, strconv.FormatFloat(st.Value, 'f', -1, 64), st.Unit
	}
	var all []string
	for _, st := range run.Summary.Stats {
		all = append(all, statCell(st))
	}
	row[9] = strings.Join(all, "; ")
	if run.Summary.Error != "" {
		row[11] = "failed: " + run.Summary.Error
	}
	for i, cell := range row {
		row[i] = csvSafe(cell)
	}
	return row
}

// statCell writes a stat as key=number, the number plain (no unit, no
// thousands separator, at most three decimals) in the unit the key names,
// so a spreadsheet can split and sum it. A key that does not name its
// unit gets the unit added: "answer_tokens" stays, "share" in % becomes
// "share_pct".
func statCell(st labs.Stat) string {
	key := st.Key
	if suffix := unitSuffix(st.Unit); suffix != "" && !strings.HasSuffix(key, suffix) && !namesRate(key, st.Unit) {
		key += "_" + suffix
	}
	return key + "=" + strconv.FormatFloat(math.Round(st.Value*1000)/1000, 'f', -1, 64)
}

// unitSuffix is unit as a key suffix: "ms", "tok_per_s", "pct", "usd".
func unitSuffix(unit string) string {
	switch unit {
	case "":
		return ""
	case "%":
		return "pct"
	case "$":
		return "usd"
	}
	return strings.NewReplacer("/", "_per_", " ", "_").Replace(unit)
}

// namesRate reports a key already naming a per-second rate for a unit of
// one: "tokens_per_s" for tok/s, "capacity_rps" for req/s.
func namesRate(key, unit string) bool {
	if !strings.HasSuffix(unit, "/s") {
		return false
	}
	return strings.HasSuffix(key, "_per_s") || strings.HasSuffix(key, "_rps") || strings.Contains(key, "_rps_") || strings.HasSuffix(key, "_tps")
}

// csvSafe keeps a spreadsheet from reading a learner's name as a formula.
func csvSafe(cell string) string {
	if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return "'" + cell
	}
	return cell
}
