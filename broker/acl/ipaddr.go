package acl

// The address checks of commons-validator 1.7's InetAddressValidator and
// AclUtils.expandIP, which the white address patterns are built on.

import (
	"regexp"
	"strings"
)

var ipv4Shape = regexp.MustCompile(`^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$`)

var zoneID = regexp.MustCompile(`^[^\s/%]+$`)

var prefixLen = regexp.MustCompile(`^[0-9]{1,3}$`)

// validIPv4 is InetAddressValidator.isValidInet4Address: four decimal
// groups of at most 255 without leading zeros.
func validIPv4(s string) bool {
	groups := ipv4Shape.FindStringSubmatch(s)
	if groups == nil {
		return false
	}
	for _, g := range groups[1:] {
		v, err := parseIntJava(g, 10)
		if err != nil || v > 255 || (len(g) > 1 && g[0] == '0') {
			return false
		}
	}
	return true
}

// validIPv6 is InetAddressValidator.isValidInet6Address: up to eight hex
// groups, at most one "::", an optional trailing IPv4 address, an optional
// %zone and /prefix.
func validIPv6(s string) bool {
	s, ok := cutPrefixAndZone(s)
	if !ok {
		return false
	}
	compressed := strings.Contains(s, "::")
	if compressed && strings.Index(s, "::") != strings.LastIndex(s, "::") {
		return false
	}
	if (strings.HasPrefix(s, ":") && !strings.HasPrefix(s, "::")) ||
		(strings.HasSuffix(s, ":") && !strings.HasSuffix(s, "::")) {
		return false
	}
	groups := ipv6Groups(s, compressed)
	if len(groups) > 8 {
		return false
	}
	valid, ok := countIPv6Groups(groups)
	if !ok {
		return false
	}
	return valid <= 8 && (valid == 8 || compressed)
}

// cutPrefixAndZone strips a "/bits" suffix and a "%zone" suffix, checking
// their syntax.
func cutPrefixAndZone(s string) (string, bool) {
	parts := strings.Split(s, "/")
	if len(parts) > 2 {
		return "", false
	}
	if len(parts) == 2 {
		if !prefixLen.MatchString(parts[1]) {
			return "", false
		}
		if bits, _ := parseIntJava(parts[1], 10); bits > 255 {
			return "", false
		}
	}
	parts = strings.Split(parts[0], "%")
	if len(parts) > 2 || (len(parts) == 2 && !zoneID.MatchString(parts[1])) {
		return "", false
	}
	return parts[0], true
}

// ipv6Groups splits s on ':' as Java's String.split does (trailing empty
// groups dropped), then evens out the empty groups a leading or trailing
// "::" leaves.
func ipv6Groups(s string, compressed bool) []string {
	groups := strings.Split(s, ":")
	for len(groups) > 0 && groups[len(groups)-1] == "" {
		groups = groups[:len(groups)-1]
	}
	if !compressed {
		return groups
	}
	if strings.HasSuffix(s, "::") {
		groups = append(groups, "")
	} else if strings.HasPrefix(s, "::") && len(groups) > 0 {
		groups = groups[1:]
	}
	return groups
}

// countIPv6Groups counts the 16-bit groups (an IPv4 tail counts two) and
// reports false for a malformed group or two empty groups in a row.
func countIPv6Groups(groups []string) (int, bool) {
	valid, empty := 0, 0
	for i, g := range groups {
		if g == "" {
			empty++
			if empty > 1 {
				return 0, false
			}
			valid++
			continue
		}
		empty = 0
		if i == len(groups)-1 && strings.Contains(g, ".") {
			if !validIPv4(g) {
				return 0, false
			}
			valid += 2
			continue
		}
		if len(g) > 4 {
			return 0, false
		}
		v, err := parseIntJava(g, 16)
		if err != nil || v < 0 || v > 0xffff {
			return 0, false
		}
		valid++
	}
	return valid, true
}

// expandIP is AclUtils.expandIP: upper-case, widen "::" so that the address
// has part groups, and left-pad every group to four characters. Anything
// that is not IPv6 goes through the same text operations (an IPv4 address
// comes back unchanged).
func expandIP(s string, part int) string {
	s = strings.ToUpper(s)
	if pad := part - strings.Count(s, ":"); pad > 0 {
		s = strings.ReplaceAll(s, "::", ":"+strings.Repeat(":", pad))
	}
	if s == "" {
		return ""
	}
	groups := strings.Split(s, ":")
	for i, g := range groups {
		if n := javaLen(g); n < 4 {
			groups[i] = strings.Repeat("0", 4-n) + g
		}
	}
	return strings.Join(groups, ":")
}
