package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/views"
)

// fidelityWait bounds how long the page waits for the start-up replay
// before showing a "still computing" note instead.
const fidelityWait = 5 * time.Second

// handleFidelity serves /engine/fidelity: the reference table.
func (s *Server) handleFidelity(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), fidelityWait)
	defer cancel()
	f := views.Fidelity{} // not ready: the page says so
	if rep, err := s.fidelity.wait(ctx); ctx.Err() == nil {
		f = fidelityView(rep, err)
	}
	p := s.page(c, "How close is the engine to a real server?", "")
	p.Description = "The bundled engine's figures beside published vLLM benchmarks on the same GPUs, models and workloads, with the error of each."
	return render(c, http.StatusOK, views.FidelityPage(p, f))
}
