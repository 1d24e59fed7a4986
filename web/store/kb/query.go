package kb

import (
	"strings"
	"unicode"
)

// Limits on what a user's text can turn into, so a pasted essay cannot make
// an expensive search.
const (
	MaxQueryBytes = 2000 // text beyond this is ignored
	MaxTerms      = 24   // distinct search terms kept, in order of appearance
	maxTermRunes  = 40
)

// MatchExpr turns free user text into a safe FTS5 MATCH expression: the text
// is split into words (letters and digits only, so no FTS5 operator, column
// filter or quote can get through), lower-cased, stripped of stop words and
// one-letter words, de-duplicated, each word double-quoted and the words
// joined with OR, so BM25 ranks passages by how many and how rare the
// matching words are. It returns "" when no search word is left.
func MatchExpr(text string) string {
	if len(text) > MaxQueryBytes {
		text = text[:MaxQueryBytes]
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	seen := make(map[string]bool, len(words))
	var terms []string
	for _, w := range words {
		if r := []rune(w); len(r) > maxTermRunes {
			w = string(r[:maxTermRunes])
		}
		if len([]rune(w)) < 2 || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		terms = append(terms, `"`+w+`"`)
		if len(terms) == MaxTerms {
			break
		}
	}
	return strings.Join(terms, " OR ")
}

// stopWords carry no topic: matching them would rank passages by how chatty
// they are, not by what they are about.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		a about above after again against all am an and any are aren as at be because been before
		being below between both but by can cannot could couldn did didn do does doesn doing don down
		during each few for from further had hadn has hasn have haven having he her here hers herself
		him himself his how i if in into is isn it its itself just let me more most my myself no nor
		not now of off on once only or other ought our ours ourselves out over own same shan she
		should shouldn so some such than that the their theirs them themselves then there these they
		this those through to too under until up very was wasn we were weren what when where which
		while who whom why will with won would wouldn you your yours yourself yourselves
		hi hello hey please thanks thank ok okay yes also get got im ive id youre dont cant
		want need know tell help like would anyone something anything still really`) {
		m[w] = true
	}
	return m
}()
