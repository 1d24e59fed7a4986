// Package web is Latency Lab's HTTP server: echo routes for the home, lesson
// and lab pages, the lab runner that streams a lab's frames to the browser
// as Datastar patches over server-sent events, the learner cookie, limits and
// security headers, and the SQLite store of progress and runs.
package web

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/lessons"
)

// Config configures a Server. Zero fields take the defaults listed on each.
type Config struct {
	Addr    string        // listen address; default "127.0.0.1:8080"
	DBPath  string        // SQLite file; default "latencylab.db"
	Catalog *labs.Catalog // the labs; default an empty catalogue
	Lessons LessonSource  // default the embedded lessons package

	// API serves the OpenAI-compatible surface under /v1/ and Metrics serves
	// /metrics; each is mounted only when non-nil.
	API     http.Handler
	Metrics http.Handler
	Chat    *ChatBackend // the support-desk chat's model tiers; nil: /chat says it cannot answer

	// Hardware and Model name the default engine profile the labs use; the
	// footer shows them so learners know what their numbers model.
	Hardware string
	Model    string

	Logger *slog.Logger // default: text to stderr
	Clock  clock.Clock  // default: the wall clock

	// Ready, when set, is called once the listener is open with the base URL
	// (the real port when Addr asks for port 0).
	Ready func(url string)

	BodyLimit      int64         // request body bytes; default 64 KiB
	RatePerSecond  float64       // sustained POSTs per learner; default 0.5
	RateBurst      int           // POST burst per learner; default 12
	MaxRuns        int           // concurrent lab runs per learner; default 2
	PatchInterval  time.Duration // minimum gap between frame patches; default 50 ms (20/s)
	RunTimeout     time.Duration // longest a single run may stream; default 5 min
	ShutdownGrace  time.Duration // wait for streams to end on shutdown; default 10 s
	RunListSize    int           // runs compared under a lab; default 6
	CookieInsecure bool          // never set Secure on cookies (tests over plain HTTP behind TLS proxies)

	Limits Limits // limits per client address and for the whole machine; see Limits

	Workshops WorkshopConfig // cohort workshops: room size, load dial, join limits
	// RoomObserver, when set, observes the requests on every workshop
	// room's engines (the server's /metrics); nil leaves rooms out.
	RoomObserver func(labs.Profile) live.Observer

	Grader GraderConfig // optional model grading of open practice answers; off without a URL

	// Upstream, when set, lets every engine lab run on an upstream
	// OpenAI-compatible server ("Engine: that server"), with the bundled
	// engine modelling that server's deployment run beside it; nil hides
	// the choice.
	Upstream *labs.EngineChoice
}

// Limits are the limits a client cannot dodge by dropping or rotating its
// cookie, and the server's timeouts. Zero fields take the defaults listed.
type Limits struct {
	// AddrRatePerSecond and AddrRateBurst bound POSTs per client address
	// (IPv6 per /64). A class behind one NAT shares an address, so these
	// are well above the per-learner rate. Defaults 4/s and 60.
	AddrRatePerSecond float64
	AddrRateBurst     int
	// MaxRunsPerAddr caps concurrent lab runs and chat answers per client
	// address; default half of MaxRunsTotal, at least the per-learner cap.
	MaxRunsPerAddr int
	// MaxRunsTotal caps concurrent lab runs and chat answers on the whole
	// server; default 4 per CPU, at least 8.
	MaxRunsTotal int

	// AllowedOrigins are the origins (scheme://host[:port]) whose pages may
	// POST; default the listen address's own origins (loopback names for a
	// loopback bind, every interface address for a wildcard bind). Port 0
	// in Addr means "whatever port Serve gets".
	AllowedOrigins []string
	// TrustedProxies are the CIDRs (or bare IPs) of reverse proxies whose
	// X-Forwarded-For and X-Forwarded-Proto are believed; default none.
	TrustedProxies []string

	ReadTimeout  time.Duration // whole request, body included; default 10 s
	WriteTimeout time.Duration // non-streaming responses; default 30 s
	IdleTimeout  time.Duration // keep-alive between requests; default 2 min
}

// LessonSource is where the server finds lessons: the lessons package in
// production, a fixed list in tests.
type LessonSource interface {
	All() []lessons.Lesson
	Get(slug string) (lessons.Lesson, bool)
	Neighbours(slug string) (prev, next *lessons.Lesson)
}

// PackageLessons serves the embedded lessons of the lessons package.
type PackageLessons struct{}

// All returns every lesson in course order.
func (PackageLessons) All() []lessons.Lesson { return lessons.All() }

// Get finds a lesson by slug.
func (PackageLessons) Get(slug string) (lessons.Lesson, bool) { return lessons.Get(slug) }

// Neighbours returns the lessons before and after slug.
func (PackageLessons) Neighbours(slug string) (prev, next *lessons.Lesson) {
	return lessons.Neighbours(slug)
}

// withDefaults fills zero fields.
func (c Config) withDefaults() Config {
	if c.Addr == "" {
		c.Addr = "127.0.0.1:8080"
	}
	if c.DBPath == "" {
		c.DBPath = "latencylab.db"
	}
	if c.Catalog == nil {
		c.Catalog, _ = labs.NewCatalog()
	}
	if c.Lessons == nil {
		c.Lessons = PackageLessons{}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	c.Clock = clock.Or(c.Clock)
	if c.BodyLimit == 0 {
		c.BodyLimit = 64 << 10
	}
	if c.RatePerSecond == 0 {
		c.RatePerSecond = 0.5
	}
	if c.RateBurst == 0 {
		c.RateBurst = 12
	}
	if c.MaxRuns == 0 {
		c.MaxRuns = 2
	}
	if c.PatchInterval == 0 {
		c.PatchInterval = 50 * time.Millisecond
	}
	if c.RunTimeout == 0 {
		c.RunTimeout = 5 * time.Minute
	}
	if c.ShutdownGrace == 0 {
		c.ShutdownGrace = 10 * time.Second
	}
	if c.RunListSize == 0 {
		c.RunListSize = 6
	}
	c.Limits = c.Limits.withDefaults(c.MaxRuns)
	c.Workshops = c.Workshops.withDefaults()
	c.Grader = c.Grader.withDefaults()
	return c
}

// withDefaults fills zero limits; perLearner is the per-learner run cap.
func (l Limits) withDefaults(perLearner int) Limits {
	if l.AddrRatePerSecond == 0 {
		l.AddrRatePerSecond = 4
	}
	if l.AddrRateBurst == 0 {
		l.AddrRateBurst = 60
	}
	if l.MaxRunsTotal == 0 {
		l.MaxRunsTotal = max(8, 4*runtime.NumCPU())
	}
	if l.MaxRunsPerAddr == 0 {
		l.MaxRunsPerAddr = max(perLearner, l.MaxRunsTotal/2)
	}
	if l.ReadTimeout == 0 {
		l.ReadTimeout = 10 * time.Second
	}
	if l.WriteTimeout == 0 {
		l.WriteTimeout = 30 * time.Second
	}
	if l.IdleTimeout == 0 {
		l.IdleTimeout = 2 * time.Minute
	}
	return l
}

// validate reports every bad limit.
func (l Limits) validate() []error {
	var errs []error
	if l.AddrRatePerSecond < 0 || l.AddrRateBurst < 1 {
		errs = append(errs, fmt.Errorf("address rate %.2f/s burst %d: want a positive rate and a burst of at least 1", l.AddrRatePerSecond, l.AddrRateBurst))
	}
	if l.MaxRunsTotal < 1 || l.MaxRunsPerAddr < 1 {
		errs = append(errs, fmt.Errorf("max runs total %d, per address %d: want at least 1 each", l.MaxRunsTotal, l.MaxRunsPerAddr))
	}
	if l.ReadTimeout < 0 || l.WriteTimeout < 0 || l.IdleTimeout < 0 {
		errs = append(errs, errors.New("timeouts must not be negative"))
	}
	if _, err := parseOrigins(l.AllowedOrigins); err != nil {
		errs = append(errs, err)
	}
	if _, err := parseProxies(l.TrustedProxies); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// Validate reports every bad field at once, judging the configuration as
// it will be used: zero fields count as their defaults.
func (c Config) Validate() error {
	c = c.withDefaults()
	var errs []error
	if _, port, err := net.SplitHostPort(c.Addr); err != nil || port == "" {
		errs = append(errs, fmt.Errorf("addr %q: want HOST:PORT", c.Addr))
	}
	if c.DBPath == "" {
		errs = append(errs, errors.New("db path is empty"))
	}
	if c.BodyLimit < 1024 {
		errs = append(errs, fmt.Errorf("body limit %d: want at least 1024 bytes", c.BodyLimit))
	}
	if c.RatePerSecond < 0 || c.RateBurst < 1 {
		errs = append(errs, fmt.Errorf("rate %.2f/s burst %d: want a positive rate and a burst of at least 1", c.RatePerSecond, c.RateBurst))
	}
	if c.MaxRuns < 1 {
		errs = append(errs, fmt.Errorf("max runs %d: want at least 1", c.MaxRuns))
	}
	if c.PatchInterval < 0 || c.RunTimeout < 0 || c.ShutdownGrace < 0 {
		errs = append(errs, errors.New("durations must not be negative"))
	}
	if c.RunListSize < 1 || c.RunListSize > 50 {
		errs = append(errs, fmt.Errorf("run list size %d: want 1 to 50", c.RunListSize))
	}
	errs = append(errs, c.Limits.validate()...)
	errs = append(errs, c.Workshops.validate()...)
	errs = append(errs, c.Grader.validate(c.Limits.WriteTimeout)...)
	if c.Catalog != nil {
		if err := checkCatalog(c.Catalog); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("web config: %w", errors.Join(errs...))
	}
	return nil
}
