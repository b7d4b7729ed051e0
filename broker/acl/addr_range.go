package acl

// RangeRemoteAddressStrategy: the first group after the first one that is
// "*" or "a-b" is the range; the groups before it are a literal head.

import (
	"fmt"
	"strings"
)

type addrRange struct {
	head       string
	start, end int
	// index is the number of groups in head, which is also the position of
	// the ranged group.
	index int
}

func parseRange(p string) (addrPattern, error) {
	r := &addrRange{}
	var err error
	if strings.Contains(p, ":") {
		err = r.parseIPv6(p)
	} else {
		err = r.parseIPv4(p)
	}
	if err != nil {
		return nil, err
	}
	if r.head == "" {
		// Java leaves head null here and every later match of a valid
		// address throws a NullPointerException.
		return nil, fmt.Errorf("white address %q: no group is * or a range", p)
	}
	return r.match, nil
}

func (r *addrRange) parseIPv4(p string) error {
	groups := splitJava(p, '.')
	if found, err := r.findRange(p, groups, 3, 10, 255); err != nil || !found {
		return err
	}
	var b strings.Builder
	for _, g := range groups[:r.index] {
		b.WriteString(trimJava(g))
		b.WriteByte('.')
	}
	r.head = b.String()
	return nil
}

func (r *addrRange) parseIPv6(p string) error {
	if err := checkIPv6RangeShape(p); err != nil {
		return err
	}
	groups := splitJava(p, ':')
	if found, err := r.findRange(p, groups, len(groups)-1, 16, 0xffff); err != nil || !found {
		return err
	}
	head, err := ipv6RangeHead(p)
	if err != nil {
		return err
	}
	r.head, r.index = head, len(splitJava(head, ':'))
	return nil
}

// findRange looks for the first of groups[1..last] that is "*" or "a-b"
// (numbers in base, at most max) and checks the groups before it; it
// reports whether there was one.
func (r *addrRange) findRange(p string, groups []string, last, base, max int) (bool, error) {
	for i := 1; i <= last; i++ {
		found, err := r.group(groups, i, base, max)
		if err != nil {
			return false, fmt.Errorf("white address %q: %w", p, err)
		}
		if found {
			return true, checkHeadGroups(p, r.index-1)
		}
	}
	return false, nil
}

// group is RangeRemoteAddressStrategy.analysis/ipv6Analysis: it reads
// groups[i] as "*" or "a-b" into start and end, and reports whether end is
// positive. Like Java it keeps start and end from earlier groups.
func (r *addrRange) group(groups []string, i, base, max int) (bool, error) {
	if i >= len(groups) {
		return false, fmt.Errorf("too few groups")
	}
	v := trimJava(groups[i])
	r.index = i
	switch {
	case v == "*":
		r.start, r.end = 0, max
	case strings.Contains(v, "-"):
		if strings.HasPrefix(v, "-") {
			return false, fmt.Errorf("range %q starts with '-'", v)
		}
		bounds := splitJava(v, '-')
		if len(bounds) < 2 {
			return false, fmt.Errorf("range %q has no end", v)
		}
		start, err1 := parseIntJava(bounds[0], base)
		end, err2 := parseIntJava(bounds[1], base)
		if err1 != nil || err2 != nil {
			return false, fmt.Errorf("range %q is not numeric", v)
		}
		if start < 0 || end > max || start > end {
			return false, fmt.Errorf("range %q is outside 0-%d or reversed", v, max)
		}
		r.start, r.end = start, end
	}
	return r.end > 0, nil
}

// checkHeadGroups is AclUtils.verify: the first n groups of p must be
// numbers in range (an IPv4 pattern must have four groups).
func checkHeadGroups(p string, n int) error {
	bad := fmt.Errorf("white address %q: the groups before the range are not valid", p)
	if strings.Contains(p, ":") {
		groups := splitJava(expandIP(p, 8), ':')
		if n > len(groups) {
			return bad
		}
		for _, g := range groups[:max(n, 0)] {
			if v, err := parseIntJava(g, 16); err != nil || v < 0 || v > 0xffff {
				return bad
			}
		}
		return nil
	}
	groups := splitJava(p, '.')
	if len(groups) != 4 {
		return bad
	}
	for _, g := range groups[:max(n, 0)] {
		if v, err := parseIntJava(trimJava(g), 10); err != nil || v < 0 || v > 255 {
			return bad
		}
	}
	return nil
}

// checkIPv6RangeShape is AclUtils.IPv6AddressCheck: a '*' may only be last,
// and a range must sit in the last group, or the one before a final '*'.
func checkIPv6RangeShape(p string) error {
	star, minus := strings.Index(p, "*"), strings.Index(p, "-")
	bad := fmt.Errorf("white address %q: '*' must end it and a range must be in its last group", p)
	if star > -1 && star != len(p)-1 {
		return bad
	}
	if minus == -1 {
		return nil
	}
	last := strings.LastIndex(p, ":")
	limit := last
	if star > -1 {
		limit = strings.LastIndex(p[:max(last, 0)], ":")
	}
	if minus <= limit {
		return bad
	}
	return nil
}

// ipv6RangeHead is AclUtils.v6ipProcess: the pattern without its ranged
// groups, expanded to the number of groups it stands for.
func ipv6RangeHead(p string) (string, error) {
	star, minus := strings.Contains(p, "*"), strings.Contains(p, "-")
	last := strings.LastIndex(p, ":")
	if star && minus {
		second := strings.LastIndex(p[:last], ":")
		if second < 0 {
			return "", fmt.Errorf("white address %q: too few groups", p)
		}
		return expandIP(p[:second], 6), nil
	}
	return expandIP(p[:last], 7), nil
}

func (r *addrRange) match(host string) bool {
	switch {
	case validIPv4(host):
		return r.matchIPv4(host)
	case validIPv6(host):
		return r.matchIPv6(expandIP(host, 8))
	}
	return false
}

func (r *addrRange) matchIPv4(host string) bool {
	if !strings.HasPrefix(host, r.head) {
		return false
	}
	rest := host[len(r.head):]
	// The ranged group is the first of the groups left after head.
	group, _, _ := strings.Cut(rest, ".")
	if r.index == 3 {
		group = rest
	}
	return r.inRange(group, 10)
}

func (r *addrRange) matchIPv6(host string) bool {
	if !strings.HasPrefix(host, r.head) || len(host) < 5*r.index+4 {
		return false
	}
	return r.inRange(host[5*r.index:5*r.index+4], 16)
}

func (r *addrRange) inRange(group string, base int) bool {
	v, err := parseIntJava(group, base)
	return err == nil && v >= r.start && v <= r.end
}
