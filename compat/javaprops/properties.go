package javaprops

import (
	"sort"
	"strings"
)

// Properties is a string→string table that remembers the order in which keys
// first appeared. The zero value is not usable; call New.
type Properties struct {
	keys []string
	m    map[string]string
}

// New returns an empty Properties.
func New() *Properties {
	return &Properties{m: make(map[string]string)}
}

// Len returns the number of keys.
func (p *Properties) Len() int { return len(p.keys) }

// Get returns the value of key and whether it is present.
func (p *Properties) Get(key string) (string, bool) {
	v, ok := p.m[key]
	return v, ok
}

// Set stores value under key. A new key goes last; an existing key keeps its
// place and takes the new value (duplicate keys in a file: the last wins).
func (p *Properties) Set(key, value string) {
	if _, ok := p.m[key]; !ok {
		p.keys = append(p.keys, key)
	}
	p.m[key] = value
}

// Delete removes key if present.
func (p *Properties) Delete(key string) {
	if _, ok := p.m[key]; !ok {
		return
	}
	delete(p.m, key)
	for i, k := range p.keys {
		if k == key {
			p.keys = append(p.keys[:i], p.keys[i+1:]...)
			return
		}
	}
}

// Keys returns the keys in order of first appearance (a copy).
func (p *Properties) Keys() []string {
	return append([]string(nil), p.keys...)
}

// Sort puts the keys in byte-wise (UTF-8) order.
func (p *Properties) Sort() { sort.Strings(p.keys) }

// Merge copies every entry of from into p in p's own key order (existing
// keys are overwritten in place, new keys are appended).
func (p *Properties) Merge(from *Properties) {
	for _, k := range from.keys {
		p.Set(k, from.m[k])
	}
}

// MergeIfExist copies the entries of from whose key p already has
// (Configuration.mergeIfExist, used by UPDATE_*_CONFIG).
func (p *Properties) MergeIfExist(from *Properties) {
	for _, k := range from.keys {
		if _, ok := p.m[k]; ok {
			p.m[k] = from.m[k]
		}
	}
}

// Format renders p as MixAll.properties2String does: "key=value\n" per
// entry, nothing escaped, in p's key order. Java builds GET_NAMESRV_CONFIG /
// GET_BROKER_CONFIG bodies and the persisted config file this way. The form
// is lossy: values with leading blanks, backslashes, line breaks or (in keys)
// '=', ':' and blanks do not read back unchanged; AppendEscaped does.
func (p *Properties) Format() string {
	var b strings.Builder
	for _, k := range p.keys {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(p.m[k])
		b.WriteByte('\n')
	}
	return b.String()
}

// AppendEscaped appends p as "key=value\n" lines escaped the way
// Properties.store escapes (without its "#date" comment): '\\', '=', ':',
// '#', '!' and line breaks are escaped, every blank of a key and a value's
// leading blank become "\ ", and chars outside U+0020..U+007E become \uXXXX
// (upper-case hex, surrogate pairs for supplementary code points). The output
// is ASCII and reads back to the same table through Parse, ParseString or
// ParseUTF8. No 4.9.8 code path writes this form.
func (p *Properties) AppendEscaped(dst []byte) []byte {
	for _, k := range p.keys {
		dst = appendStoreEscaped(dst, k, true)
		dst = append(dst, '=')
		dst = appendStoreEscaped(dst, p.m[k], false)
		dst = append(dst, '\n')
	}
	return dst
}

const upperHex = "0123456789ABCDEF"

func appendStoreEscaped(dst []byte, s string, isKey bool) []byte {
	for i, r := range s {
		switch {
		case r == ' ':
			if isKey || i == 0 {
				dst = append(dst, '\\')
			}
			dst = append(dst, ' ')
		case r == '\t':
			dst = append(dst, '\\', 't')
		case r == '\n':
			dst = append(dst, '\\', 'n')
		case r == '\r':
			dst = append(dst, '\\', 'r')
		case r == '\f':
			dst = append(dst, '\\', 'f')
		case r == '=' || r == ':' || r == '#' || r == '!' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r < 0x20 || r > 0x7E:
			dst = appendUEscapes(dst, r)
		default:
			dst = append(dst, byte(r))
		}
	}
	return dst
}

func appendUEscapes(dst []byte, r rune) []byte {
	if r > 0xFFFF {
		r -= 0x10000
		dst = appendU(dst, uint16(0xD800+(r>>10)))
		return appendU(dst, uint16(0xDC00+(r&0x3FF)))
	}
	return appendU(dst, uint16(r))
}

func appendU(dst []byte, c uint16) []byte {
	return append(dst, '\\', 'u', upperHex[c>>12], upperHex[c>>8&0xF], upperHex[c>>4&0xF], upperHex[c&0xF])
}
