// Package store keeps learners' progress, drill answers and lab runs in a
// SQLite file (modernc.org/sqlite, no cgo). Numbered SQL migrations are
// embedded and applied at Open, each recorded in schema_migrations so a
// restart applies only what is new.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrInvalid marks bad input to a store method (empty ids, oversize text);
// the web layer maps it to a 4xx.
var ErrInvalid = errors.New("invalid input")

// Store is an open database. It is safe for concurrent use.
type Store struct {
	db          *sql.DB
	interrupted int64 // answers Open marked interrupted
}

// timeFormat stores times as sortable UTC text with nanoseconds, so runs saved
// in the same second still list newest first.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

// maxOpenConns caps the store's SQLite connections (see Open).
const maxOpenConns = 4

// Open opens (creating if needed) the database at path, applies pending
// migrations and marks answers a crashed run left streaming as interrupted.
// Open a database from one serving process at a time: a second Open would
// mark the first one's live answers interrupted.
func Open(ctx context.Context, path string) (*Store, error) {
	if strings.TrimSpace(path) == "" {
		return nil, fmt.Errorf("open store: %w: empty path", ErrInvalid)
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	// SQLite takes one writer at a time. Without a cap a burst (100 lab
	// runs finishing at once) opens a connection per request: they wait
	// in SQLite's busy handler, which is not first-come first-served, so
	// one can lose until busy_timeout runs out, and the C memory of a
	// hundred connections is not all returned when they close (about 6 MB
	// of RSS stayed). Capped, the requests queue fairly in database/sql.
	// No method holds a connection while it asks for another, so the cap
	// cannot deadlock.
	db.SetMaxOpenConns(maxOpenConns)
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if s.interrupted, err = s.markInterrupted(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database, checkpointing the WAL.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	return nil
}

// Ping checks the database answers; used by /healthz.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return fmt.Errorf("ping store: %w", err)
	}
	return nil
}

// migrate applies every embedded migration not yet recorded, each in its own
// transaction together with its schema_migrations row.
func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("list migrations: %w", err)
	}
	sort.Strings(files)
	for _, f := range files {
		name := strings.TrimPrefix(f, "migrations/")
		num, _, ok := strings.Cut(name, "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil {
			return fmt.Errorf("migration %s: name must start with a number and _", name)
		}
		if err := s.apply(ctx, version, name, f); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) apply(ctx context.Context, version int, name, file string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: %w", name, err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
		return fmt.Errorf("migration %s: %w", name, err)
	}
	if n > 0 {
		return nil
	}
	body, err := migrations.ReadFile(file)
	if err != nil {
		return fmt.Errorf("migration %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return fmt.Errorf("migration %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		version, name, time.Now().UTC().Format(timeFormat)); err != nil {
		return fmt.Errorf("migration %s: record: %w", name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", name, err)
	}
	return nil
}

// Migrations lists the applied migration versions in order.
func (s *Store) Migrations(ctx context.Context) ([]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("list migrations: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(timeFormat, s)
	return t
}
