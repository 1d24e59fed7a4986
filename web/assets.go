package web

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/static"
)

// chartsCSS is the chart components' stylesheet, bundled into app.css so a
// page loads one stylesheet.
//
//go:embed views/charts/charts.css
var chartsCSS []byte

// asset is one file served under a content-hashed name.
type asset struct {
	name        string // hashed, e.g. "app.3f2a1c9b.css"
	body        []byte
	contentType string
	etag        string
}

// assets maps logical names ("app.css") to their hashed files.
type assets struct {
	byLogical map[string]*asset
	byHashed  map[string]*asset
}

func loadAssets() (*assets, error) {
	a := &assets{byLogical: map[string]*asset{}, byHashed: map[string]*asset{}}
	var bundle []byte
	for _, name := range static.Stylesheets {
		css, err := static.Files.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("assets: %w", err)
		}
		bundle = append(append(bundle, css...), '\n')
	}
	bundle = append(append(bundle, "/* charts */\n"...), chartsCSS...)
	a.add("app.css", bundle, "text/css; charset=utf-8")
	js, err := static.Files.ReadFile("vendor/datastar.js")
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	a.add("datastar.js", js, "text/javascript; charset=utf-8")
	lic, err := static.Files.ReadFile("vendor/DATASTAR-LICENSE")
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	a.add("datastar-license.txt", lic, "text/plain; charset=utf-8")
	return a, nil
}

func (a *assets) add(logical string, body []byte, contentType string) {
	sum := sha256.Sum256(body)
	h := hex.EncodeToString(sum[:])[:10]
	ext := path.Ext(logical)
	as := &asset{
		name:        strings.TrimSuffix(logical, ext) + "." + h + ext,
		body:        body,
		contentType: contentType,
		etag:        `"` + h + `"`,
	}
	a.byLogical[logical] = as
	a.byHashed[as.name] = as
}

// URL returns the hashed URL of a logical asset name; templates use it so a
// changed file gets a new URL and the long cache never serves a stale one.
func (a *assets) URL(logical string) string {
	if as, ok := a.byLogical[logical]; ok {
		return "/static/" + as.name
	}
	return "/static/" + logical
}

// serve answers /static/{name} for hashed names only, cached for a year.
func (a *assets) serve(c echo.Context) error {
	as, ok := a.byHashed[c.Param("name")]
	if !ok {
		return notFound("file")
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", as.etag)
	if c.Request().Header.Get("If-None-Match") == as.etag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, as.contentType, as.body)
}
