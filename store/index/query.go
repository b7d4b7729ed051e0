package index

import (
	"errors"
	"fmt"
	"slices"
)

// Query returns the commit-log offsets of up to maxNum messages of topic
// carrying key stored within [begin, end] (ms), with the end time and end
// offset of the newest file (IndexService.queryOffset). maxNum is capped
// at MaxMsgsNumBatch. Files are searched newest first; a file is searched
// when its time range meets [begin, end], and the search stops after the
// first file that begins before begin or once maxNum offsets are found.
// Within a file offsets come newest first. A maxNum that is not positive
// finds nothing (Java throws building its list).
func (s *Service) Query(topic, key string, maxNum int, begin, end int64) (offsets []int64, lastUpdateTimestamp, lastUpdatePhyOffset int64) {
	maxNum = min(maxNum, s.cfg.MaxMsgsNumBatch)
	if maxNum <= 0 {
		return nil, 0, 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	k := BuildKey(topic, key)
	for i := len(s.files) - 1; i >= 0; i-- {
		f := s.files[i]
		h := f.Header()
		if i == len(s.files)-1 {
			lastUpdateTimestamp, lastUpdatePhyOffset = h.EndTimestamp, h.EndPhyOffset
		}
		if timeMatched(&h, begin, end) {
			offsets = f.AppendQuery(offsets, k, maxNum, begin, end)
		}
		if h.BeginTimestamp < begin || len(offsets) >= maxNum {
			break
		}
	}
	return offsets, lastUpdateTimestamp, lastUpdatePhyOffset
}

// ReadFunc reads the message at a commit-log offset for QueryMessages: its
// store time, and whether it could be read.
type ReadFunc func(offset int64) (storeTimestamp int64, ok bool)

// QueryMessages is DefaultMessageStore.queryMessage's loop over Query: up
// to three rounds, each sorting the offsets found ascending and reading
// them with read. The first round that reads any message ends the loop;
// otherwise the next round searches up to the store time of the first
// (lowest) offset when that one could be read, and the loop ends once
// that time is before begin. It returns the offsets read and the last
// non-empty round's newest-file end time and offset (0, 0 when nothing
// was found). Java reads a message's store time (lookMessageByOffset) and
// its bytes (getData) separately; read answers both at once, so a round
// after the first only repeats it.
func (s *Service) QueryMessages(topic, key string, maxNum int, begin, end int64, read ReadFunc) (found []int64, lastUpdateTimestamp, lastUpdatePhyOffset int64) {
	upTo := end
	for range 3 {
		offs, ts, phy := s.Query(topic, key, maxNum, begin, upTo)
		if len(offs) == 0 {
			break
		}
		slices.Sort(offs)
		lastUpdateTimestamp, lastUpdatePhyOffset = ts, phy
		for m, off := range offs {
			st, ok := read(off)
			if !ok {
				continue
			}
			if m == 0 {
				upTo = st
			}
			found = append(found, off)
		}
		if len(found) > 0 || upTo < begin {
			break
		}
	}
	return found, lastUpdateTimestamp, lastUpdatePhyOffset
}

// DeleteBefore destroys the oldest files whose end offset is below
// offset, never the newest (IndexService.deleteExpiredFile): nothing
// happens unless the oldest qualifies, and the run stops at the first
// file that does not.
func (s *Service) DeleteBefore(offset int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.files) == 0 || s.files[0].Header().EndPhyOffset >= offset {
		return nil
	}
	n := 0
	for n < len(s.files)-1 && s.files[n].Header().EndPhyOffset < offset {
		n++
	}
	for i := range n {
		if err := s.files[i].Destroy(); err != nil {
			s.files = s.files[i:]
			return err
		}
	}
	s.files = slices.Delete(s.files, 0, n)
	return nil
}

// Flush flushes every file and, if the newest is full, records its end
// time in the checkpoint. Java flushes a file only when the next one is
// started; this is for a caller that wants the index durable (shutdown).
func (s *Service) Flush() error {
	var errs []error
	for _, f := range s.Files() {
		errs = append(errs, s.flushFile(f))
	}
	return errors.Join(errs...)
}

// Close waits for background flushes and closes the files, keeping them
// on disk (a clean exit needs no flush: the mapping holds everything).
func (s *Service) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.flushes.Wait()
	s.closeFiles()
	return nil
}

func (s *Service) closeFiles() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.files {
		f.Close()
	}
	s.files = nil
}

// Destroy removes every file (IndexService.destroy).
func (s *Service) Destroy() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.flushes.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, f := range s.files {
		if err := f.Destroy(); err != nil {
			errs = append(errs, fmt.Errorf("index: destroy: %w", err))
		}
	}
	s.files = nil
	return errors.Join(errs...)
}
