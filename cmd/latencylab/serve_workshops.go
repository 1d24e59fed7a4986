package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/latencylab/latencylab/web"
)

// workshopFlags are the serve settings for cohort workshops.
type workshopFlags struct {
	SizeCap    int
	MaxLoadRPS float64
}

// addWorkshopFlags registers the workshop flags with env fallbacks (flags
// win); the returned check reports a bad value after parsing.
func addWorkshopFlags(fs *flag.FlagSet, getenv func(string) string, f *workshopFlags) (check func() error) {
	var envErr error
	if v := getenv("LATENCYLAB_WORKSHOP_SIZE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			envErr = fmt.Errorf("LATENCYLAB_WORKSHOP_SIZE=%q: want a whole number, 0 for the default", v)
		}
		f.SizeCap = n
	}
	if v := getenv("LATENCYLAB_WORKSHOP_MAX_LOAD"); v != "" {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 {
			envErr = fmt.Errorf("LATENCYLAB_WORKSHOP_MAX_LOAD=%q: want requests per second, 0 for the default", v)
		}
		f.MaxLoadRPS = x
	}
	fs.IntVar(&f.SizeCap, "workshop-size", f.SizeCap,
		"most learners one workshop room takes (env LATENCYLAB_WORKSHOP_SIZE); 0: 300")
	fs.Float64Var(&f.MaxLoadRPS, "workshop-max-load", f.MaxLoadRPS,
		"top of the instructor's load dial, synthetic requests per second on a room's engine (env LATENCYLAB_WORKSHOP_MAX_LOAD); 0: 20")
	return func() error {
		if envErr != nil {
			return envErr
		}
		if f.SizeCap < 0 || f.MaxLoadRPS < 0 {
			return fmt.Errorf("--workshop-size %d, --workshop-max-load %g: want 0 (the default) or more", f.SizeCap, f.MaxLoadRPS)
		}
		return nil
	}
}

// config turns the flags into the web server's workshop settings.
func (f workshopFlags) config() web.WorkshopConfig {
	return web.WorkshopConfig{SizeCap: f.SizeCap, MaxLoadRPS: f.MaxLoadRPS}
}
