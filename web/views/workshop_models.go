package views

import (
	"fmt"

	"github.com/latencylab/latencylab/labs"
)

// WorkshopNew is the create form.
type WorkshopNew struct {
	Name  string
	Error string
}

// JoinForm is the join form, with what the learner typed and why it was
// refused.
type JoinForm struct {
	Code  string
	Name  string
	Error string
}

// WorkshopBanner is the slim strip a learner in a workshop sees.
type WorkshopBanner struct {
	Code     string
	Name     string // the workshop's name
	Member   string // the learner's display name
	Pushed   string // e.g. "Streaming vs blocking · Huge prompt"; "" before any push
	Locked   bool
	Ended    bool
	Revealed bool
}

// WorkshopLearner is a learner's page in a workshop.
type WorkshopLearner struct {
	Banner    WorkshopBanner
	Round     WorkshopRound
	Stage     WorkshopStage
	EventsURL string // the room's SSE stream for this page
	Reveal    *RoomResults
	Note      string // about the learner's last run in the room
}

// WorkshopStage is the lab the instructor pushed, set to the pushed preset.
type WorkshopStage struct {
	Round  int64
	Preset string
	Lab    *Lab // nil before the first push
}

// WorkshopRound is the line above the pushed lab that tells a learner
// what to do in this round; it follows the room's state.
type WorkshopRound struct {
	Round  int64
	Preset string // "" before the first push
	// Provider is the preset's hosted provider traffic (req/s): > 0 means
	// its runs go to a provider of their own, not the room's engine.
	Provider float64
	Locked   bool // predictions are closed
	Ended    bool
}

// RoomResults is the room's guesses against what the engine measured.
type RoomResults struct {
	Chart    labs.Chart // histogram of guesses with the measured marks
	Summary  []string   // plain sentences: medians, spread, closest
	Guesses  int
	Measured int
}

// WorkshopBoard is the instructor's view.
type WorkshopBoard struct {
	Code          string
	Name          string
	JoinURL       string // absolute when the host is known
	JoinQR        string // data: URL of a PNG QR code of the room's join link
	InstructorURL string // the private link; shown only on the board
	Ended         bool
	Round         int64
	PushedLab     string // title
	PushedPreset  string
	// PushedProvider is the pushed preset's hosted provider traffic
	// (req/s); > 0 means its runs leave the room's engine.
	PushedProvider float64
	Locked         bool
	Revealed       bool
	LoadRPS        float64
	MaxLoadRPS     float64
	Labs           []LabChoice
	EventsURL      string
	Live           BoardLive
}

// LabChoice is a lab the instructor can push, with its presets.
type LabChoice struct {
	Slug    string
	Title   string
	Presets []string
}

// BoardLive is the part of the board the stream patches.
type BoardLive struct {
	Members int
	Online  int
	Ran     int // members with a run this round
	// OnProvider counts this round's runs that went to a hosted provider
	// of their own, outside the room's engine.
	OnProvider int
	Roster     []RosterRow
	Results    RoomResults
	Runs       []RoomRunRow
	Load       LoadPanel
}

// RosterRow is one learner on the board.
type RosterRow struct {
	Name      string
	Joined    string // clock time
	Online    bool
	Lab       string // lab of their latest run, or the pushed lab while online
	Predicted string // their guess this round, "" if none
	Runs      int    // runs this round
	Latest    string // headline of their latest run this round
	History   []RoomRunRow
	id        string
}

// RoomRunRow is one finished run in the room.
type RoomRunRow struct {
	Name       string
	Lab        string
	Preset     string
	Prediction string
	Measured   string
	SharedWith int     // others in its busiest batch, on the engine it ran on (as its result says)
	Provider   float64 // req/s of tenants on its own hosted provider; 0: it ran on the room's engine
	// Engine names the room engine the run used ("llama-3.1-8b on
	// a100-80g") when its settings say; a room keeps one per model and GPU.
	Engine string
	At     string
}

// Where says which engine the run used: one of the room's, with the most
// other requests its batch held, or a hosted provider of its own.
func (r RoomRunRow) Where() string {
	engine := "room engine"
	if r.Provider > 0 {
		engine = fmt.Sprintf("hosted provider, %s req/s of its own", FormatPlain(r.Provider))
	} else if r.Engine != "" {
		engine += " (" + r.Engine + ")"
	}
	if r.SharedWith == 0 {
		return engine + ", alone in its batch"
	}
	return engine + ", up to " + labs.Count(r.SharedWith, "other")
}

// LoadPanel is the room's main engine over time.
type LoadPanel struct {
	Started  bool // the room's engine is running
	Profile  string
	Running  int
	Waiting  int
	KVUse    string // percent
	TTFTp50  string
	TTFTp95  string
	Tenants  int // synthetic requests in flight
	LoadRPS  float64
	TTFT     labs.Chart
	Batch    labs.Chart
	HasChart bool
	// OnProvider counts this round's runs the panel never saw: they ran
	// on a hosted provider of their own.
	OnProvider int
}

// SetLearner keeps the learner id behind a roster row (never drawn), so
// the board can mark who is online without another query.
func (r *RosterRow) SetLearner(id string) { r.id = id }

// Learner is the id SetLearner kept.
func (r RosterRow) Learner() string { return r.id }

// pluralWord is one when n is 1, many otherwise.
func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
