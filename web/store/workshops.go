package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Workshop errors the web layer turns into messages.
var (
	ErrWorkshopNotFound = errors.New("no such workshop or member") // also: the learner has not joined
	ErrCodeTaken        = errors.New("workshop code already in use")
	ErrWorkshopEnded    = errors.New("workshop has ended")
	ErrWorkshopFull     = errors.New("workshop is full")
)

// MaxMemberName bounds a display name in runes, suffix included.
const MaxMemberName = 40

// Workshop is a room an instructor runs.
type Workshop struct {
	Code         string
	Name         string
	SecretHash   string // hex SHA-256 of the instructor secret
	SizeCap      int
	PushedLab    string // "" until the instructor pushes a lab
	PushedPreset string
	PushedAt     time.Time
	PushSeq      int64     // counts pushes, so runs belong to one round
	LockedAt     time.Time // predictions closed since; zero while open
	Revealed     bool      // learners see the room's results
	LoadRPS      float64
	CreatedAt    time.Time
	EndedAt      time.Time // zero while running
}

// Locked reports whether predictions are closed: guesses saved from then
// on are not counted in the room's histogram.
func (w Workshop) Locked() bool { return !w.LockedAt.IsZero() }

// Ended reports whether the workshop refuses joins.
func (w Workshop) Ended() bool { return !w.EndedAt.IsZero() }

// Member is one learner in a workshop.
type Member struct {
	Workshop string
	Learner  string
	Name     string
	JoinedAt time.Time
}

// CreateWorkshop stores a new workshop; ErrCodeTaken means pick another code.
func (s *Store) CreateWorkshop(ctx context.Context, w Workshop) error {
	if w.Code == "" || w.Name == "" || w.SecretHash == "" || w.SizeCap < 1 || w.CreatedAt.IsZero() {
		return fmt.Errorf("create workshop: %w: code, name, secret, size cap and time are required", ErrInvalid)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO workshops (code, name, secret_hash, size_cap, created_at) VALUES (?, ?, ?, ?, ?)`,
		w.Code, w.Name, w.SecretHash, w.SizeCap, formatTime(w.CreatedAt))
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return ErrCodeTaken
	}
	if err != nil {
		return fmt.Errorf("create workshop: %w", err)
	}
	return nil
}

const workshopCols = `code, name, secret_hash, size_cap, pushed_lab, pushed_preset, pushed_at, push_seq, locked_at, revealed, load_rps, created_at, ended_at`

func scanWorkshop(row interface{ Scan(...any) error }) (Workshop, error) {
	var w Workshop
	var pushedAt, lockedAt, created, ended string
	err := row.Scan(&w.Code, &w.Name, &w.SecretHash, &w.SizeCap, &w.PushedLab, &w.PushedPreset, &pushedAt,
		&w.PushSeq, &lockedAt, &w.Revealed, &w.LoadRPS, &created, &ended)
	if err != nil {
		return Workshop{}, err
	}
	w.PushedAt, w.CreatedAt = optParse(pushedAt), parseTime(created)
	w.EndedAt, w.LockedAt = optParse(ended), optParse(lockedAt)
	return w, nil
}

func optParse(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	return parseTime(s)
}

// GetWorkshop finds a workshop by code; ErrWorkshopNotFound when there is none.
func (s *Store) GetWorkshop(ctx context.Context, code string) (Workshop, error) {
	w, err := scanWorkshop(s.db.QueryRowContext(ctx, `SELECT `+workshopCols+` FROM workshops WHERE code = ?`, code))
	if errors.Is(err, sql.ErrNoRows) {
		return Workshop{}, ErrWorkshopNotFound
	}
	if err != nil {
		return Workshop{}, fmt.Errorf("get workshop: %w", err)
	}
	return w, nil
}

// ActiveWorkshops lists workshops not ended, so a restarted server can
// resume their load dials.
func (s *Store) ActiveWorkshops(ctx context.Context) ([]Workshop, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+workshopCols+` FROM workshops WHERE ended_at = '' ORDER BY created_at`)
	if err != nil {
		return nil, fmt.Errorf("active workshops: %w", err)
	}
	defer rows.Close()
	var out []Workshop
	for rows.Next() {
		w, err := scanWorkshop(rows)
		if err != nil {
			return nil, fmt.Errorf("active workshops: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// JoinWorkshop adds learner to the workshop under name, made unique in the
// room with a numeric suffix ("Ana", "Ana 2"). A learner already in the
// room keeps the name they have. It fails with ErrWorkshopNotFound, ErrWorkshopEnded
// or ErrWorkshopFull; the cap and the end are checked in the same statement
// that inserts, so concurrent joins cannot overfill a room.
func (s *Store) JoinWorkshop(ctx context.Context, code, learner, name string, at time.Time) (Member, error) {
	if name == "" || utf8.RuneCountInString(name) > MaxMemberName {
		return Member{}, fmt.Errorf("join workshop: %w: name must be 1 to %d characters", ErrInvalid, MaxMemberName)
	}
	if m, err := s.GetMember(ctx, code, learner); err == nil {
		return m, nil
	} else if !errors.Is(err, ErrWorkshopNotFound) {
		return Member{}, err
	}
	if err := s.EnsureLearner(ctx, learner, at); err != nil {
		return Member{}, err
	}
	for n := 1; n <= 1000; n++ {
		candidate := withSuffix(name, n)
		res, err := s.db.ExecContext(ctx, `INSERT INTO workshop_members (workshop, learner, name, joined_at)
			SELECT code, ?, ?, ? FROM workshops WHERE code = ? AND ended_at = ''
			AND (SELECT count(*) FROM workshop_members WHERE workshop = ?) < size_cap
			ON CONFLICT (workshop, learner) DO NOTHING`, learner, candidate, formatTime(at), code, code)
		if err != nil && strings.Contains(err.Error(), "workshop_members.name") {
			continue
		}
		if err != nil {
			return Member{}, fmt.Errorf("join workshop: %w", err)
		}
		if k, _ := res.RowsAffected(); k == 0 {
			return Member{}, s.whyNoJoin(ctx, code, learner)
		}
		return Member{Workshop: code, Learner: learner, Name: candidate, JoinedAt: at}, nil
	}
	return Member{}, fmt.Errorf("join workshop: %w: too many members share that name", ErrInvalid)
}

// whyNoJoin explains an insert that added no row.
func (s *Store) whyNoJoin(ctx context.Context, code, learner string) error {
	if _, err := s.GetMember(ctx, code, learner); err == nil {
		return nil // a concurrent join by the same learner won
	}
	w, err := s.GetWorkshop(ctx, code)
	if err != nil {
		return err
	}
	if w.Ended() {
		return ErrWorkshopEnded
	}
	return ErrWorkshopFull
}

// withSuffix makes the n-th candidate for name, trimming the name so the
// suffix fits within MaxMemberName.
func withSuffix(name string, n int) string {
	if n == 1 {
		return name
	}
	suffix := " " + strconv.Itoa(n)
	r := []rune(name)
	if keep := MaxMemberName - len(suffix); len(r) > keep {
		r = r[:keep]
	}
	return strings.TrimSpace(string(r)) + suffix
}

// GetMember finds learner in the workshop; ErrWorkshopNotFound when not a member.
func (s *Store) GetMember(ctx context.Context, code, learner string) (Member, error) {
	m := Member{Workshop: code, Learner: learner}
	var at string
	err := s.db.QueryRowContext(ctx, `SELECT name, joined_at FROM workshop_members WHERE workshop = ? AND learner = ?`,
		code, learner).Scan(&m.Name, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Member{}, ErrWorkshopNotFound
	}
	if err != nil {
		return Member{}, fmt.Errorf("get member: %w", err)
	}
	m.JoinedAt = parseTime(at)
	return m, nil
}

// Members lists a workshop's learners in the order they joined.
func (s *Store) Members(ctx context.Context, code string) ([]Member, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT learner, name, joined_at FROM workshop_members
		WHERE workshop = ? ORDER BY joined_at, name`, code)
	if err != nil {
		return nil, fmt.Errorf("members: %w", err)
	}
	defer rows.Close()
	var out []Member
	for rows.Next() {
		m := Member{Workshop: code}
		var at string
		if err := rows.Scan(&m.Learner, &m.Name, &at); err != nil {
			return nil, fmt.Errorf("members: %w", err)
		}
		m.JoinedAt = parseTime(at)
		out = append(out, m)
	}
	return out, rows.Err()
}

// PushLab puts the room on lab and preset and starts a new round; it
// returns the round's number. Predictions open again for the new round.
func (s *Store) PushLab(ctx context.Context, code, lab, preset string, at time.Time) (int64, error) {
	var seq int64
	err := s.db.QueryRowContext(ctx, `UPDATE workshops SET pushed_lab = ?, pushed_preset = ?, pushed_at = ?,
		push_seq = push_seq + 1, locked_at = '', revealed = 0 WHERE code = ? AND ended_at = '' RETURNING push_seq`,
		lab, preset, formatTime(at), code).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, s.endedOrMissing(ctx, code)
	}
	if err != nil {
		return 0, fmt.Errorf("push lab: %w", err)
	}
	return seq, nil
}

// WorkshopSettings are the instructor's switches other than the push.
type WorkshopSettings struct {
	Locked   bool
	Revealed bool
	LoadRPS  float64
}

// UpdateWorkshopSettings stores the instructor's switches at time at
// (closing predictions that are already closed keeps the first time).
func (s *Store) UpdateWorkshopSettings(ctx context.Context, code string, set WorkshopSettings, at time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE workshops SET
		locked_at = CASE WHEN ? THEN (CASE WHEN locked_at = '' THEN ? ELSE locked_at END) ELSE '' END,
		revealed = ?, load_rps = ? WHERE code = ? AND ended_at = ''`,
		set.Locked, formatTime(at), set.Revealed, set.LoadRPS, code)
	if err != nil {
		return fmt.Errorf("workshop settings: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return s.endedOrMissing(ctx, code)
	}
	return nil
}

// EndWorkshop closes the room to joins and stops its load; learners keep
// their runs. Ending twice is not an error.
func (s *Store) EndWorkshop(ctx context.Context, code string, at time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE workshops SET ended_at = ?, load_rps = 0 WHERE code = ? AND ended_at = ''`,
		formatTime(at), code)
	if err != nil {
		return fmt.Errorf("end workshop: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.GetWorkshop(ctx, code); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) endedOrMissing(ctx context.Context, code string) error {
	if _, err := s.GetWorkshop(ctx, code); err != nil {
		return err
	}
	return ErrWorkshopEnded
}
