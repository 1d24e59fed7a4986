package web

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// exportHeader names the CSV's columns.
var exportHeader = []string{"name", "lab", "preset", "round", "prediction", "prediction_unit", "measured_stat", "measured", "unit", "stats", "shared_batch_with", "status", "time"}

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
	row := []string{run.Name, run.Lab, run.Preset, strconv.FormatInt(run.PushSeq, 10), "", "", "", "", "", "", strconv.Itoa(run.SharedWith), run.Summary.Status, run.CreatedAt.UTC().Format(time.RFC3339)}
	if p := run.Summary.Prediction; p != nil {
		row[4], row[5] = strconv.FormatFloat(p.Value, 'f', -1, 64), p.Unit
	}
	if st, ok := s.headline(run); ok && run.Summary.Error == "" {
		row[6], row[7], row[8] = st.Key, strconv.FormatFloat(st.Value, 'f', -1, 64), st.Unit
	}
	var all []string
	for _, st := range run.Summary.Stats {
		all = append(all, st.Key+"="+views.FormatValue(st.Value, st.Unit))
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

// csvSafe keeps a spreadsheet from reading a learner's name as a formula.
func csvSafe(cell string) string {
	if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return "'" + cell
	}
	return cell
}
