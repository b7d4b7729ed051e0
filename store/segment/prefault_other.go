//go:build unix && !linux

package segment

func populate([]byte) {}

func adviseNoReadahead([]byte) {}

func adviseNormal([]byte) {}

func dropMapping([]byte) {}
