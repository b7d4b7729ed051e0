//go:build unix && !linux

package segment

func populate([]byte) {}
