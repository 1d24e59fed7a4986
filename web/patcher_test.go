package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
)

// The status dot tells how a run ended: a finished run that missed what it
// is judged by is not shown in the success colour.
func TestStatusStateFollowsTheFrame(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame labs.Frame
		state string
	}{
		{"running", labs.Frame{Status: "Prefill…"}, "status-running"},
		{"finished", labs.Frame{Final: true, Status: "Run finished."}, "status-done"},
		{"finished, budget missed", labs.Frame{Final: true, Missed: true, Status: "Run finished. Budget missed."}, "status-missed"},
		{"failed", labs.Frame{Final: true, Missed: true, Error: "engine gone"}, "status-failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			c := echo.New().NewContext(httptest.NewRequest(http.MethodPost, "/", nil), rec)
			p := &framePatcher{st: openStream(c, http.StatusOK), ctx: context.Background(), ids: idsFor("budget")}
			if err := p.frame(tc.frame); err != nil {
				t.Fatal(err)
			}
			body := rec.Body.String()
			for _, state := range []string{"status-running", "status-done", "status-missed", "status-failed"} {
				if got := strings.Contains(body, state); got != (state == tc.state) {
					t.Errorf("stream has %s: %v, want only %s", state, got, tc.state)
				}
			}
		})
	}
}
