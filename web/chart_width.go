package web

import (
	"context"
	"encoding/json"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/views"
	"github.com/latencylab/latencylab/web/views/charts"
)

// chartChrome is what a chart's figure takes from the output column's
// width: its padding and border on both sides, in CSS pixels (app.css
// .chart).
const chartChrome = 26

// chartContext lays a run's charts out for the output column the page
// measured when Run was pressed, so a phone gets charts drawn for its
// width instead of shrunk ones. A missing or unreadable width keeps the
// default layout: it only decides how the chart is drawn.
func chartContext(ctx context.Context, raw json.RawMessage) context.Context {
	var px float64
	if len(raw) == 0 || json.Unmarshal(raw, &px) != nil || px <= chartChrome {
		return ctx
	}
	return charts.WithWidth(ctx, px-chartChrome)
}

// chartWidthCookie keeps the output column's width that a lab page
// measured at its last run (set by the page's Run button), so a saved run
// or a comparison opened later on the same phone is laid out for that
// width too instead of shrinking a desktop layout to unreadable text.
const chartWidthCookie = views.ChartWidthCookie

// chartWidthFromCookie lays the request's charts out for the width in
// chartWidthCookie; without a usable cookie the default layout stays.
func chartWidthFromCookie(c echo.Context) {
	ck, err := c.Cookie(chartWidthCookie)
	if err != nil {
		return
	}
	c.SetRequest(c.Request().WithContext(chartContext(c.Request().Context(), json.RawMessage(ck.Value))))
}
