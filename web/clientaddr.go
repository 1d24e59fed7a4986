package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/labstack/echo/v4"
)

// proxies are the reverse proxies whose forwarding headers are believed.
type proxies []netip.Prefix

// parseProxies reads CIDRs or bare IPs (a single address).
func parseProxies(raw []string) (proxies, error) {
	var out proxies
	var errs []error
	for _, r := range raw {
		r = strings.TrimSpace(r)
		if p, err := netip.ParsePrefix(r); err == nil {
			out = append(out, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(r); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		errs = append(errs, fmt.Errorf("trusted proxy %q: want a CIDR such as 10.0.0.0/8 or an IP address", r))
	}
	return out, errors.Join(errs...)
}

// trusts reports whether the request came straight from a trusted proxy.
func (ps proxies) trusts(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap().WithZone("")
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ipExtractor is echo's X-Forwarded-For reader trusting only ps (echo
// trusts loopback and private networks by default, which would let any
// client on them claim any address), or the peer address with no proxies.
func (ps proxies) ipExtractor() echo.IPExtractor {
	if len(ps) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range ps {
		opts = append(opts, echo.TrustIPRange(&net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// addrKey is the client address limits are keyed on: the IPv4 address, or
// the IPv6 /64 (one subscriber usually holds a whole /64 and can rotate
// through it at will).
func addrKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return "unknown" // every unreadable address shares one allowance
	}
	a = a.Unmap().WithZone("")
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// clientAddr is the limits key for c's client.
func clientAddr(c echo.Context) string { return addrKey(c.RealIP()) }

// overTLS reports a request that reached the client's browser over TLS:
// directly, or through a trusted proxy that says so in X-Forwarded-Proto.
func (s *Server) overTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https") && s.proxies.trusts(r)
}
