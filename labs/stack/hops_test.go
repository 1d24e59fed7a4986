package stack

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

// writes are n writes of size bytes each, every step from step.
func writes(n, size int, step time.Duration) []chunk {
	out := make([]chunk, n)
	for i := range out {
		out[i] = chunk{at: time.Duration(i+1) * step, data: bytes.Repeat([]byte{'a' + byte(i%26)}, size)}
	}
	return out
}

// shape is a proxy's output as (time, size) pairs.
type shape struct {
	at   time.Duration
	size int
}

func shapeOf(cs []chunk) []shape {
	var out []shape
	for _, c := range cs {
		out = append(out, shape{c.at, len(c.data)})
	}
	return out
}

func TestProxyReleasesWhenFullOnTheTimerOrAtTheEnd(t *testing.T) {
	in := writes(10, 30, 10*ms) // 30 bytes at 10, 20, … 100 ms
	tests := []struct {
		name  string
		p     proxy
		ended bool
		now   time.Duration
		want  []shape
	}{
		{"no proxy passes every write", proxy{buffering: true, size: 64}, true, 0, shapeOf(in)},
		{"buffering off passes every write", proxy{on: true, size: 64}, true, 0, shapeOf(in)},
		{"a buffer bigger than the answer waits for the end", proxy{on: true, buffering: true, size: 1 << 20}, true, 0,
			[]shape{{100 * ms, 300}}},
		{"a full buffer goes a buffer at a time", proxy{on: true, buffering: true, size: 64}, true, 0,
			[]shape{{30 * ms, 64}, {50 * ms, 64}, {70 * ms, 64}, {90 * ms, 64}, {100 * ms, 44}}},
		{"several buffers in one write", proxy{on: true, buffering: true, size: 20}, true, 0,
			[]shape{{10 * ms, 20}, {20 * ms, 40}, {30 * ms, 20}, {40 * ms, 40}, {50 * ms, 20}, {60 * ms, 40}, {70 * ms, 20}, {80 * ms, 40}, {90 * ms, 20}, {100 * ms, 40}}},
		{"the timer ticks from the first byte", proxy{on: true, buffering: true, size: 1 << 20, flush: 25 * ms}, true, 0,
			[]shape{{35 * ms, 90}, {60 * ms, 60}, {85 * ms, 90}, {100 * ms, 60}}},
		{"a tick on a write's moment goes before it", proxy{on: true, buffering: true, size: 1 << 20, flush: 20 * ms}, true, 0,
			[]shape{{30 * ms, 60}, {50 * ms, 60}, {70 * ms, 60}, {90 * ms, 60}, {100 * ms, 60}}},
		{"not ended: the rest waits", proxy{on: true, buffering: true, size: 64}, false, 100 * ms,
			[]shape{{30 * ms, 64}, {50 * ms, 64}, {70 * ms, 64}, {90 * ms, 64}}},
		{"not ended: a tick due by now fires", proxy{on: true, buffering: true, size: 1 << 20, flush: 50 * ms}, false, 120 * ms,
			[]shape{{60 * ms, 150}, {110 * ms, 150}}},
		{"not ended: a tick after now does not", proxy{on: true, buffering: true, size: 1 << 20, flush: 50 * ms}, false, 105 * ms,
			[]shape{{60 * ms, 150}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.p.pass(in, tc.ended, tc.now)
			if !reflect.DeepEqual(shapeOf(got), tc.want) {
				t.Errorf("got %v, want %v", shapeOf(got), tc.want)
			}
			if tc.ended && !bytes.Equal(joined(got), joined(in)) {
				t.Error("the bytes passed on differ from the bytes taken in")
			}
		})
	}
}

func joined(cs []chunk) []byte {
	var b []byte
	for _, c := range cs {
		b = append(b, c.data...)
	}
	return b
}

// FuzzProxy: whatever the writes and settings, the proxy passes every byte
// on in order by the end, never earlier than it came in and never out of
// time order.
func FuzzProxy(f *testing.F) {
	f.Add([]byte("id: 1\ndata: x\n\n"), uint8(3), uint16(7), uint16(25))
	f.Add([]byte{}, uint8(1), uint16(1), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, n uint8, size, flush uint16) {
		var in []chunk
		for i := 0; i < int(n)%40; i++ {
			in = append(in, chunk{at: time.Duration(i*7) * ms, data: data})
		}
		p := proxy{on: true, buffering: true, size: int(size)%4096 + 1, flush: time.Duration(flush%1000) * ms}
		out := p.pass(in, true, 0)
		if !bytes.Equal(joined(out), joined(in)) {
			t.Fatalf("bytes out %q, in %q", joined(out), joined(in))
		}
		for i, c := range out {
			if i > 0 && c.at < out[i-1].at {
				t.Fatalf("write %d at %v before write %d at %v", i, c.at, i-1, out[i-1].at)
			}
		}
	})
}

// TestBrowserShowsAnEventOnlyWhenItIsWhole: bytes cut mid-event show
// nothing until the event's blank line arrives.
func TestBrowserShowsAnEventOnlyWhenItIsWhole(t *testing.T) {
	ev := "id: 1\ndata: {\"text\":\"Hello\"}\n\nid: 2\ndata: {\"text\":\" there\"}\n\n"
	cut := strings.Index(ev, "there") // inside the second event
	arr, err := browser([]chunk{{at: 10 * ms, data: []byte(ev[:cut])}, {at: 20 * ms, data: []byte(ev[cut:])}})
	if err != nil {
		t.Fatal(err)
	}
	if arr[0].text != "Hello" || arr[0].events != 1 || arr[1].text != " there" || arr[1].events != 1 {
		t.Errorf("arrivals %+v", arr)
	}
	s := watch(arr, -1, 5*ms)
	if s.firstWord != 10*ms || s.lastWord != 20*ms || s.bursts != 2 || s.words != 2 || s.longestGap != 10*ms {
		t.Errorf("screen %+v", s)
	}
	if early := watch(arr, 15*ms, 5*ms); early.words != 1 || early.text != "Hello" {
		t.Errorf("at 15 ms the screen is %+v", early)
	}
}

func TestShowBytesKeepsFramingVisibleAndOnOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"data: x\n\n", `data: x\n\n`},
		{"a\r\nb\rc", `a\r\nb\rc`},
		{"nul\x00 bell\x07 tab\t", "nul\\0 bell\uFFFD tab\\t"},
		{"\xff\xfe", "\uFFFD"},
		{"line\u2028sep", "line\uFFFDsep"},
		{strings.Repeat("é", rawRunes+5), strings.Repeat("é", rawRunes) + "…"},
	}
	for _, tc := range tests {
		got := showBytes([]byte(tc.in))
		if got != tc.want {
			t.Errorf("showBytes(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.ContainsAny(got, "\r\n") {
			t.Errorf("showBytes(%q) keeps a line end", tc.in)
		}
	}
}
