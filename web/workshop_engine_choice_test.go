package web

import (
	"net/url"
	"strings"
	"testing"
)

// With a server attached, a lab's own page offers "That server"; the same
// lab pushed to a workshop does not, since a room's runs go to the room's
// engines (a run that asks for the server anyway is refused).
func TestWorkshopStageOffersNoServer(t *testing.T) {
	s, _ := engineServer(t, true)
	ts := startHTTP(t, s)
	const engineSelect = `id="lab-streaming-k-engine"`
	if _, body := get(t, client(t), ts.URL+"/labs/streaming"); !strings.Contains(body, engineSelect) {
		t.Fatal("the lab's own page offers no engine choice: the test cannot tell")
	}
	inst, code := openWorkshop(t, ts.URL, "Remote room")
	learner, _ := joinWorkshop(t, ts.URL, code, "Ana")
	if resp := postForm(t, inst, ts.URL+"/workshops/"+code+"/push", url.Values{"lab": {"streaming"}, "preset": {"Streaming on an H100"}}); resp.StatusCode >= 400 {
		t.Fatalf("push: %d", resp.StatusCode)
	}
	_, body := get(t, learner, ts.URL+"/workshops/"+code)
	if !strings.Contains(body, `id="lab-streaming"`) {
		t.Fatal("the learner page does not show the pushed lab")
	}
	if strings.Contains(body, engineSelect) || strings.Contains(body, `<option value="server">`) {
		t.Error("the workshop's lab offers the attached server, whose runs it would refuse")
	}
}
