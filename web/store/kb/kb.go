// Package kb is the bundled knowledge base of the support-desk demo: the help
// centre of Northwind Outfitters, a fictional outdoor-clothing shop, written
// as one Markdown file per article and embedded in the binary. It also holds
// the two pure text steps around search: the chunker that cuts articles into
// passages at load time, and the sanitiser that turns free user text into a
// safe FTS5 MATCH expression. The store indexes and searches; this package
// touches no database.
package kb

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed articles/*.md
var articles embed.FS

// Article is one help-centre page, already chunked.
type Article struct {
	Slug   string   // file name without .md, unique
	Title  string   // the "# " heading
	Chunks []string // passages in reading order, see Chunk
}

// Load reads and chunks every embedded article, ordered by slug, and returns
// a version string that changes whenever any title, chunk or the chunker's
// output changes, so the store can tell when to reindex.
func Load() ([]Article, string, error) {
	return load(articles, "articles")
}

func load(fsys fs.FS, dir string) ([]Article, string, error) {
	files, err := fs.Glob(fsys, dir+"/*.md")
	if err != nil {
		return nil, "", fmt.Errorf("list articles: %w", err)
	}
	sort.Strings(files)
	h := sha256.New()
	out := make([]Article, 0, len(files))
	for _, f := range files {
		body, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, "", fmt.Errorf("read article %s: %w", f, err)
		}
		a, err := Parse(strings.TrimSuffix(path.Base(f), ".md"), string(body))
		if err != nil {
			return nil, "", err
		}
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00", a.Slug, a.Title, len(a.Chunks))
		for _, c := range a.Chunks {
			fmt.Fprintf(h, "%s\x00", c)
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, "", fmt.Errorf("load articles: none found under %s", dir)
	}
	return out, hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Parse reads one article: a first line "# Title", then paragraphs separated
// by blank lines (a block of "- " lines is a list, one passage per item).
func Parse(slug, text string) (Article, error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	var title string
	var blocks [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			blocks = append(blocks, cur)
			cur = nil
		}
	}
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case title == "" && strings.HasPrefix(line, "# "):
			title = strings.TrimSpace(line[2:])
		case title == "" && line != "":
			return Article{}, fmt.Errorf("article %s: first line must be \"# Title\", got %q", slug, line)
		case line == "":
			flush()
		default:
			cur = append(cur, line)
		}
	}
	if err := sc.Err(); err != nil {
		return Article{}, fmt.Errorf("article %s: %w", slug, err)
	}
	flush()
	if title == "" {
		return Article{}, fmt.Errorf("article %s: no \"# Title\" line", slug)
	}
	var ps []passage
	for _, b := range blocks {
		ps = append(ps, chunkBlock(b)...)
	}
	a := Article{Slug: slug, Title: title, Chunks: mergeSmall(ps)}
	if len(a.Chunks) == 0 {
		return Article{}, fmt.Errorf("article %s: no text", slug)
	}
	return a, nil
}
