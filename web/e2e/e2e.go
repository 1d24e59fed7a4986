// Package e2e drives Debian's headless Chromium with chromedp for browser
// tests of the web app. Tests call Require first: browser tests run only
// when LATENCYLAB_E2E=1 and skip with a message saying how to enable them
// otherwise. Screenshot writes PNGs when LATENCYLAB_SCREENSHOTS names a
// directory, so a person (or CI) can look at the pages a journey visited.
package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// ChromiumPath is Debian's real Chromium binary; the /usr/bin/chromium
// wrapper adds extension flags that break automation.
const ChromiumPath = "/usr/lib/chromium/chromium"

// Require skips t unless browser tests are enabled and Chromium is present.
func Require(t testing.TB) {
	t.Helper()
	if os.Getenv("LATENCYLAB_E2E") != "1" {
		t.Skip("browser tests: set LATENCYLAB_E2E=1 (needs Debian chromium)")
	}
	if _, err := os.Stat(ChromiumPath); err != nil {
		t.Fatalf("LATENCYLAB_E2E=1 but %s is missing: apt-get install -y chromium", ChromiumPath)
	}
}

// Options shape a browser.
type Options struct {
	Width, Height int  // window size; default 1280×900
	Dark          bool // emulate prefers-color-scheme: dark
}

// NewBrowser starts headless Chromium with an empty profile and returns a
// tab context, closed when the test ends. Each call is its own browser, so
// cookies do not leak between journeys.
func NewBrowser(t testing.TB, o Options) context.Context {
	t.Helper()
	if o.Width == 0 {
		o.Width, o.Height = 1280, 900
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(ChromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(o.Width, o.Height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	t.Cleanup(func() {
		cancelCtx()
		cancelAlloc()
	})
	// The first Run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(o.Width), int64(o.Height))); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if o.Dark {
		if err := chromedp.Do(ctx, EmulateMedia(MediaFeature{"prefers-color-scheme", "dark"})); err != nil {
			t.Fatalf("emulate dark mode: %v", err)
		}
	}
	return ctx
}

// MediaFeature is a CSS media feature and the value a tab reports for it,
// e.g. {"prefers-reduced-motion", "reduce"}.
type MediaFeature struct{ Name, Value string }

// EmulateMedia makes the tab report exactly these media features (any
// feature not named goes back to the browser's own); with none it resets
// them all.
func EmulateMedia(features ...MediaFeature) chromedp.Action[chromedp.Void] {
	fs := make([]*emulation.MediaFeature, len(features))
	for i, f := range features {
		fs[i] = &emulation.MediaFeature{Name: f.Name, Value: f.Value}
	}
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: fs})
		return err
	})
}

// Do runs steps with a timeout, failing the test with what was being done.
func Do(t testing.TB, ctx context.Context, what string, timeout time.Duration, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := chromedp.Do(tctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// Eval evaluates a JavaScript expression and decodes its result.
func Eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

// WaitFor polls a boolean JavaScript expression until it is true.
func WaitFor(t testing.TB, ctx context.Context, what, expr string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s (%s): timed out after %v (last error %v)", what, expr, timeout, err)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// SetInput sets an input's value and dispatches input and change events;
// chromedp.SetValue alone fires neither, so Datastar's data-bind would not
// see the change.
func SetInput(id, value string) chromedp.Action[chromedp.Void] {
	js := fmt.Sprintf(`(() => { const el = document.getElementById(%s); if (!el) throw new Error("no element " + %s);
		el.value = %s; el.dispatchEvent(new Event("input", {bubbles: true})); el.dispatchEvent(new Event("change", {bubbles: true})); return true })()`,
		strconv.Quote(id), strconv.Quote(id), strconv.Quote(value))
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](js)(ctx, tg)
		return chromedp.Void{}, err
	}
}

// ScreenshotDir is where Screenshot writes, or "" when screenshots are off.
func ScreenshotDir() string { return os.Getenv("LATENCYLAB_SCREENSHOTS") }

// ScreenshotViewport is Screenshot of what the window shows, not the whole
// page: the view a phone user gets first.
func ScreenshotViewport(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	return screenshot(t, ctx, name, chromedp.CaptureScreenshot())
}

// Screenshot writes a full-page PNG named name.png into
// $LATENCYLAB_SCREENSHOTS, when set, and returns its path.
func Screenshot(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	return screenshot(t, ctx, name, chromedp.FullScreenshot(100))
}

func screenshot(t testing.TB, ctx context.Context, name string, shot chromedp.Action[[]byte]) string {
	t.Helper()
	dir := ScreenshotDir()
	if dir == "" {
		return ""
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("screenshot dir: %v", err)
	}
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	// Scroll to the top first so the sticky header sits where it belongs
	// in a full-page capture.
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`)); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	png, err := chromedp.Run(tctx, shot)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	t.Logf("screenshot %s", path)
	return path
}
