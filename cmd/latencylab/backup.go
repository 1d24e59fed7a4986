package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/latencylab/latencylab/web/store"
)

// runBackup copies the database a server is using into a new file with
// SQLite's online backup, safe while serve keeps writing to it.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	db := fs.String("db", envOr(os.Getenv, "LATENCYLAB_DB", "latencylab.db"), "the SQLite file serve uses (env LATENCYLAB_DB)")
	to := fs.String("to", "", "the new file to write the copy to; it must not exist yet")
	return exitCode(stderr, "backup", func() error {
		if help, err := parseFlags(fs, args, stdout); help || err != nil {
			return err
		}
		if strings.TrimSpace(*to) == "" {
			return badf("--to is missing: name the new file for the copy, e.g. --to latencylab-backup.db")
		}
		if _, err := os.Stat(*db); err != nil {
			return badf("no database at %s (--db names the file serve uses)", *db)
		}
		err := store.Backup(ctx, *db, *to)
		switch {
		case errors.Is(err, store.ErrBackupExists):
			return badf("%s already exists: pick a new file name, a backup never overwrites", *to)
		case err != nil:
			return err
		}
		info, err := os.Stat(*to)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", *db, *to, info.Size())
		return nil
	}())
}
