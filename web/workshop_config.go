package web

import (
	"cmp"
	"fmt"
	"time"
)

// WorkshopConfig configures cohort workshops. Zero fields take the
// defaults listed.
type WorkshopConfig struct {
	// SizeCap is the most learners one room takes; default 300.
	SizeCap int
	// MaxLoadRPS is the top of the instructor's load dial, in synthetic
	// requests per second on the room's engine; default 20.
	MaxLoadRPS float64
	// BoardInterval is the shortest gap between two updates of a board:
	// changes in between are coalesced into one; default 250 ms.
	BoardInterval time.Duration
	// JoinFailRate and JoinFailBurst bound failed joins (a wrong code)
	// per client address, so codes cannot be found by trying them; a
	// successful join costs nothing, so a class behind one NAT joins
	// freely. Defaults 0.5/s and 20.
	JoinFailRate  float64
	JoinFailBurst int
	// JoinWindow is how long after its creation a workshop takes joins;
	// later its code has expired, so an old code found on a slide cannot
	// be used to drop into a room. Default 24 h.
	JoinWindow time.Duration
	// StreamWriteTimeout drops a room subscriber (a learner's page or a
	// board) whose connection has not taken an update for this long, so a
	// stalled client never holds anything up; default 10 s.
	StreamWriteTimeout time.Duration
}

func (w WorkshopConfig) withDefaults() WorkshopConfig {
	w.SizeCap = cmp.Or(w.SizeCap, 300)
	w.MaxLoadRPS = cmp.Or(w.MaxLoadRPS, 20)
	w.BoardInterval = cmp.Or(w.BoardInterval, 250*time.Millisecond)
	w.JoinFailRate = cmp.Or(w.JoinFailRate, 0.5)
	w.JoinFailBurst = cmp.Or(w.JoinFailBurst, 20)
	w.JoinWindow = cmp.Or(w.JoinWindow, 24*time.Hour)
	w.StreamWriteTimeout = cmp.Or(w.StreamWriteTimeout, 10*time.Second)
	return w
}

// validate reports every bad workshop setting.
func (w WorkshopConfig) validate() []error {
	var errs []error
	if w.SizeCap < 1 || w.SizeCap > 10000 {
		errs = append(errs, fmt.Errorf("workshop size cap %d: want 1 to 10000", w.SizeCap))
	}
	if w.MaxLoadRPS <= 0 || w.MaxLoadRPS > 1000 {
		errs = append(errs, fmt.Errorf("workshop max load %.1f/s: want more than 0 and at most 1000", w.MaxLoadRPS))
	}
	if w.BoardInterval < 0 || w.StreamWriteTimeout < 0 || w.JoinWindow < 0 {
		errs = append(errs, fmt.Errorf("workshop durations must not be negative"))
	}
	if w.JoinFailRate <= 0 || w.JoinFailBurst < 1 {
		errs = append(errs, fmt.Errorf("workshop join rate %.2f/s burst %d: want a positive rate and a burst of at least 1", w.JoinFailRate, w.JoinFailBurst))
	}
	return errs
}
