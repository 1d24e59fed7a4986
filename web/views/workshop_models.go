package views

import "github.com/latencylab/latencylab/labs"

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
	Locked        bool
	Revealed      bool
	LoadRPS       float64
	MaxLoadRPS    float64
	Labs          []LabChoice
	EventsURL     string
	Live          BoardLive
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
	Roster  []RosterRow
	Results RoomResults
	Runs    []RoomRunRow
	Load    LoadPanel
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
	SharedWith int
	At         string
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
