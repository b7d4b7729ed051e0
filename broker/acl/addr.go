package acl

// White remote address patterns, as RemoteAddressStrategyFactory builds
// them:
//
//	""  (blank)                          matches nothing
//	*   *.*.*.*   *:*:*:*:*:*:*:*        matches everything
//	192.168.1.{1,2,3}   1050::5:{1,2}    one of the listed last groups
//	192.168.1.1,192.168.1.2              one of the listed addresses
//	192.168.*.*   192.168.1.1-100        a range in the first group after
//	10.*.*.*      1050::5:600:300c:*     the head that is * or a-b
//	127.0.0.1     ::1                    that one address
//
// A pattern Java cannot build is an error.

import (
	"fmt"
	"strings"
)

// addrPattern reports whether a client host matches a white address pattern.
type addrPattern func(host string) bool

func matchNothing(string) bool { return false }

func matchAll(string) bool { return true }

// parseAddrPattern is RemoteAddressStrategyFactory.getRemoteAddressStrategy.
func parseAddrPattern(p string) (addrPattern, error) {
	switch {
	case isBlankJava(p):
		return matchNothing, nil
	case p == "*" || p == "*.*.*.*" || p == "*:*:*:*:*:*:*:*":
		return matchAll, nil
	case strings.HasSuffix(p, "}"):
		return parseBraces(p)
	case strings.Contains(p, ","):
		return parseList(splitJava(p, ','))
	case strings.ContainsAny(p, "*-"):
		return parseRange(p)
	}
	return parseOne(p)
}

// parseBraces builds "prefix{a,b,c}", which must be the last group.
func parseBraces(p string) (addrPattern, error) {
	sep := byte('.')
	if strings.Contains(p, ":") {
		sep = ':'
	}
	groups := splitJava(p, sep)
	if sep == '.' && len(groups) < 4 {
		return nil, fmt.Errorf("white address %q: a {..} list needs four IPv4 groups", p)
	}
	last := groups[len(groups)-1]
	if !strings.HasPrefix(last, "{") {
		return nil, fmt.Errorf("white address %q: the {..} list must be the last group", p)
	}
	prefix := p[:strings.Index(p, "{")]
	tails := splitJava(last[1:len(last)-1], ',')
	addrs := make([]string, len(tails))
	for i, t := range tails {
		addrs[i] = prefix + t
	}
	return parseList(addrs)
}

// parseList is MultipleRemoteAddressStrategy: IPv6 addresses are compared
// expanded, IPv4 ones as written.
func parseList(addrs []string) (addrPattern, error) {
	set := make(map[string]struct{}, len(addrs))
	for _, a := range addrs {
		switch {
		case validIPv4(a):
			set[a] = struct{}{}
		case validIPv6(a):
			set[expandIP(a, 8)] = struct{}{}
		default:
			return nil, fmt.Errorf("white address %q is not an IP address", a)
		}
	}
	return func(host string) bool {
		if validIPv6(host) {
			host = expandIP(host, 8)
		}
		_, ok := set[host]
		return ok
	}, nil
}

// parseOne is OneRemoteAddressStrategy.
func parseOne(p string) (addrPattern, error) {
	if !validIPv4(p) && !validIPv6(p) {
		return nil, fmt.Errorf("white address %q is not an IP address", p)
	}
	want := expandIP(p, 8)
	return func(host string) bool { return expandIP(host, 8) == want }, nil
}
