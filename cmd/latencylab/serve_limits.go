package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/latencylab/latencylab/web"
)

// limitFlags are the serve settings for running the site where others can
// reach it: who may post, which proxies are believed, and how many runs
// the machine takes at once.
type limitFlags struct {
	AllowedOrigins string // comma-separated origins
	TrustedProxies string // comma-separated CIDRs or IPs
	MaxRunsTotal   int
	MaxRunsPerAddr int
}

// addLimitFlags registers the limit flags with env fallbacks (flags win);
// the returned check reports a bad env number after parsing.
func addLimitFlags(fs *flag.FlagSet, getenv func(string) string, f *limitFlags) (check func() error) {
	f.AllowedOrigins = getenv("LATENCYLAB_ALLOWED_ORIGINS")
	f.TrustedProxies = getenv("LATENCYLAB_TRUSTED_PROXIES")
	var envErr error
	envInt := func(key string) int {
		v := getenv(key)
		if v == "" {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			envErr = fmt.Errorf("%s=%q: want a whole number, 0 for the default", key, v)
		}
		return n
	}
	f.MaxRunsTotal = envInt("LATENCYLAB_MAX_RUNS")
	f.MaxRunsPerAddr = envInt("LATENCYLAB_MAX_RUNS_PER_ADDR")
	fs.StringVar(&f.AllowedOrigins, "allowed-origins", f.AllowedOrigins,
		"comma-separated origins whose pages may post, e.g. https://lab.example.org (env LATENCYLAB_ALLOWED_ORIGINS); default the listen address's own")
	fs.StringVar(&f.TrustedProxies, "trusted-proxies", f.TrustedProxies,
		"comma-separated CIDRs or IPs of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (env LATENCYLAB_TRUSTED_PROXIES); default none")
	fs.IntVar(&f.MaxRunsTotal, "max-runs-total", f.MaxRunsTotal,
		"lab runs and chat answers at once on the whole server (env LATENCYLAB_MAX_RUNS); 0: 4 per CPU, at least 8")
	fs.IntVar(&f.MaxRunsPerAddr, "max-runs-per-addr", f.MaxRunsPerAddr,
		"lab runs and chat answers at once per client address, IPv6 per /64 (env LATENCYLAB_MAX_RUNS_PER_ADDR); 0: half of --max-runs-total; raise it when a class shares one NAT address")
	return func() error {
		if envErr != nil {
			return envErr
		}
		if f.MaxRunsTotal < 0 || f.MaxRunsPerAddr < 0 {
			return fmt.Errorf("--max-runs-total %d, --max-runs-per-addr %d: want 0 (the default) or more", f.MaxRunsTotal, f.MaxRunsPerAddr)
		}
		return nil
	}
}

// limits turns the flags into the web server's limits.
func (f limitFlags) limits() web.Limits {
	return web.Limits{
		AllowedOrigins: splitList(f.AllowedOrigins),
		TrustedProxies: splitList(f.TrustedProxies),
		MaxRunsTotal:   f.MaxRunsTotal,
		MaxRunsPerAddr: f.MaxRunsPerAddr,
	}
}

// splitList splits a comma-separated flag, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
