//go:build !linux

package commitlog

import "errors"

func mapRing(int64) (ring, error) {
	return nil, errors.New("staging ring needs Linux (memfd)")
}
