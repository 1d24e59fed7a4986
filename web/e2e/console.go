package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Console collects a tab's errors: uncaught exceptions, console.error
// calls and error entries of the browser log (failed loads, CSP
// violations).
type Console struct {
	mu   sync.Mutex
	errs []string
}

// WatchConsole starts collecting the tab's errors.
func WatchConsole(t testing.TB, ctx context.Context) *Console {
	t.Helper()
	c := &Console{}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			c.add("exception: " + msg)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var s string
				for _, a := range ev.Args {
					s += fmt.Sprint(string(a.Value), a.Description) + " "
				}
				c.add("console.error: " + s)
			}
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				c.add(fmt.Sprintf("log %s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		}
	}); err != nil {
		t.Fatalf("watch console: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, log.Enable, cdp.Empty{})
		return err
	})); err != nil {
		t.Fatalf("enable the browser log: %v", err)
	}
	return c
}

func (c *Console) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.errs = append(c.errs, s)
}

// Errors returns the errors seen so far.
func (c *Console) Errors() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.errs...)
}

// Clean fails t if the tab reported any error, ignoring messages that
// contain one of the allowed substrings (e.g. an expected 422 response).
func (c *Console) Clean(t testing.TB, allowed ...string) {
	t.Helper()
next:
	for _, e := range c.Errors() {
		for _, a := range allowed {
			if a != "" && strings.Contains(e, a) {
				continue next
			}
		}
		t.Errorf("browser error: %s", e)
	}
}
