// Package static holds the site's browser assets, embedded in the binary so
// the app runs with no build step: the stylesheet and the vendored Datastar
// client (see package.json for its pinned version and DATASTAR-LICENSE).
package static

import "embed"

// Files holds the stylesheets (css/), vendor/datastar.js and the vendored
// license. The web package serves them under content-hashed names.
//
//go:embed css/*.css vendor/datastar.js vendor/DATASTAR-LICENSE
var Files embed.FS

// Stylesheets are the site's style files in cascade order (later ones may
// override earlier ones); the web package serves them as one app.css.
var Stylesheets = []string{"css/site.css", "css/lab.css", "css/pages.css", "css/workshop.css"}
