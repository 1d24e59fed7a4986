package web

import (
	"slices"

	"github.com/latencylab/latencylab/web/views"
)

// taughtIn lists the lessons that teach a lab: the one the lab names as
// its own first, then every other lesson that embeds it, in course order.
// A lab belongs to more than one lesson when a later lesson reuses it
// (parallel steps run in the budget lab), so naming only its own would
// hide where else a learner meets it.
func (s *Server) taughtIn(slug, own string) []views.LessonLink {
	var links []views.LessonLink
	if les, ok := s.cfg.Lessons.Get(own); ok && own != "" {
		links = append(links, views.LessonLink{Slug: les.Slug, Title: les.Title})
	}
	for _, les := range s.cfg.Lessons.All() {
		if les.Slug != own && slices.Contains(les.Labs, slug) {
			links = append(links, views.LessonLink{Slug: les.Slug, Title: les.Title})
		}
	}
	return links
}
