package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// originPolicy decides which pages may send this server state-changing
// requests, and under which Host names. Browsers put an Origin header on
// every POST, so a foreign or "null" Origin is a page elsewhere (or a
// sandboxed frame, or a file) acting with the learner's cookie; a foreign
// Host is a DNS-rebinding page reaching a loopback server by another name.
type originPolicy struct {
	origins map[string]bool // normalised scheme://host[:port]
	hosts   map[string]bool // normalised Host headers
	// loopbackAnyPort accepts any port on a loopback name: the listen port
	// is 0 and Serve has not yet said which port it got (httptest servers
	// built on Handler never do).
	loopbackAnyPort bool
}

// loopbackNames are the names a browser on the same machine uses for a
// loopback server.
var loopbackNames = []string{"127.0.0.1", "localhost", "::1"}

// newOriginPolicy builds the policy for a server listening on addr.
// explicit, when set, replaces the listen address's own origins; Hosts of
// both are accepted, because some reverse proxies pass the upstream
// address as Host.
func newOriginPolicy(addr string, explicit []string) (*originPolicy, error) {
	p := &originPolicy{origins: map[string]bool{}, hosts: map[string]bool{}}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("origins: addr %q: %w", addr, err)
	}
	if port == "0" {
		p.loopbackAnyPort = len(explicit) == 0
	}
	for _, h := range listenHosts(host) {
		hp := net.JoinHostPort(h, port)
		p.hosts[normalHost(hp)] = true
		if len(explicit) == 0 {
			p.origins["http://"+normalHost(hp)] = true
		}
	}
	origins, err := parseOrigins(explicit)
	if err != nil {
		return nil, err
	}
	for _, o := range origins {
		p.origins[o] = true
		p.hosts[strings.SplitN(o, "://", 2)[1]] = true
	}
	return p, nil
}

// listenHosts are the names a server bound to host answers to: loopback
// names for a loopback bind, those and every interface address for a
// wildcard bind, else host itself.
func listenHosts(host string) []string {
	ip := net.ParseIP(host)
	switch {
	case host == "localhost" || (ip != nil && ip.IsLoopback()):
		return loopbackNames
	case host == "" || (ip != nil && ip.IsUnspecified()):
		hosts := append([]string(nil), loopbackNames...)
		addrs, _ := net.InterfaceAddrs() // none listed: only loopback names are allowed
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
				hosts = append(hosts, n.IP.String())
			}
		}
		return hosts
	}
	return []string{host}
}

// parseOrigins normalises configured origins, refusing anything that is
// not scheme://host[:port].
func parseOrigins(raw []string) ([]string, error) {
	var out []string
	var errs []error
	for _, r := range raw {
		o, err := normalOrigin(strings.TrimSuffix(strings.TrimSpace(r), "/"))
		if err != nil {
			errs = append(errs, fmt.Errorf("allowed origin %q: want scheme://host[:port], e.g. https://lab.example.org", r))
			continue
		}
		out = append(out, o)
	}
	return out, errors.Join(errs...)
}

// normalOrigin lower-cases an origin and drops its scheme's default port.
func normalOrigin(o string) (string, error) {
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Opaque != "" {
		return "", errors.New("not an origin")
	}
	host := strings.ToLower(u.Host)
	if u.Scheme == "http" {
		host = strings.TrimSuffix(host, ":80")
	} else {
		host = strings.TrimSuffix(host, ":443")
	}
	return u.Scheme + "://" + host, nil
}

// normalHost lower-cases a Host header and drops a default port (the
// scheme is unknown from Host alone, so both).
func normalHost(h string) string {
	h = strings.ToLower(h)
	if host, port, err := net.SplitHostPort(h); err == nil && (port == "80" || port == "443") {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return h
}

// isLoopbackHostPort reports a host[:port] whose host is a loopback name.
func isLoopbackHostPort(hp string) bool {
	host := hp
	if h, _, err := net.SplitHostPort(hp); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

// list names the allowed origins, for the startup log: an operator whose
// learners' posts are refused can see what the server expects.
func (p *originPolicy) list() []string {
	out := make([]string, 0, len(p.origins)+1)
	for o := range p.origins {
		out = append(out, o)
	}
	sort.Strings(out)
	if p.loopbackAnyPort {
		out = append(out, "http://<loopback>:<any port>")
	}
	return out
}

func (p *originPolicy) allowsHost(host string) bool {
	h := normalHost(host)
	return p.hosts[h] || (p.loopbackAnyPort && isLoopbackHostPort(h))
}

func (p *originPolicy) allowsOrigin(origin string) bool {
	o, err := normalOrigin(origin)
	if err != nil {
		return false
	}
	if p.origins[o] {
		return true
	}
	return p.loopbackAnyPort && strings.HasPrefix(o, "http://") && isLoopbackHostPort(strings.TrimPrefix(o, "http://"))
}

// check judges a state-changing request; it returns the reason for the
// learner when the request is refused. With no Origin header (browsers
// always send one on POST, so this is a script or an old browser)
// Sec-Fetch-Site and then Referer decide; with neither, the request is
// let through: without a browser there is no cookie to abuse.
func (p *originPolicy) check(r *http.Request) (reason string, ok bool) {
	if !p.allowsHost(r.Host) {
		return fmt.Sprintf("This server does not accept changes sent to the name %q. Open the site at the address your instructor gave you.", truncateRunes(r.Host, 80)), false
	}
	origin := r.Header.Get("Origin")
	switch {
	case origin == "null":
		return "Changes can only be made from this site's own pages (this request came from a page with no address, such as a sandboxed frame or a local file).", false
	case origin != "":
		if !p.allowsOrigin(origin) {
			return fmt.Sprintf("Changes can only be made from this site's own pages, not from %s.", truncateRunes(origin, 80)), false
		}
		return "", true
	}
	if sfs := r.Header.Get("Sec-Fetch-Site"); sfs != "" && sfs != "same-origin" && sfs != "none" {
		return "Changes can only be made from this site's own pages.", false
	}
	if ref := r.Header.Get("Referer"); ref != "" {
		u, err := url.Parse(ref)
		if err != nil || !p.allowsOrigin(u.Scheme+"://"+u.Host) {
			return "Changes can only be made from this site's own pages.", false
		}
	}
	return "", true
}
