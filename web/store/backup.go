package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"

	"modernc.org/sqlite"
)

// ErrBackupExists refuses to overwrite a file with a backup: the file might
// be the last good copy.
var ErrBackupExists = errors.New("backup file already exists")

// Backup copies the database at src into a new file dst with SQLite's
// online backup API, page by page under a read transaction. It is safe
// while a server has src open and is writing to it (WAL readers do not
// block writers), and unlike Open it applies no migrations and marks no
// answer interrupted, so the copy is the database as the server has it.
// Backup never overwrites: dst must not exist.
func Backup(ctx context.Context, src, dst string) error {
	if strings.TrimSpace(src) == "" || strings.TrimSpace(dst) == "" {
		return fmt.Errorf("backup: %w: empty path", ErrInvalid)
	}
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("backup: database %s: %w", src, err)
	}
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("backup to %s: %w", dst, ErrBackupExists)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup to %s: %w", dst, err)
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: src}).EscapedPath()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return fmt.Errorf("backup: open %s: %w", src, err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup: open %s: %w", src, err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		b, ok := dc.(interface {
			NewBackup(string) (*sqlite.Backup, error)
		})
		if !ok {
			return errors.New("the SQLite driver has no online backup")
		}
		bk, err := b.NewBackup(dst)
		if err != nil {
			return err
		}
		if _, err := bk.Step(-1); err != nil {
			_ = bk.Finish()
			return err
		}
		return bk.Finish()
	})
	if err != nil {
		_ = os.Remove(dst) // a half-written copy is worse than none
		return fmt.Errorf("backup %s to %s: %w", src, dst, err)
	}
	return nil
}
