package store

import "time"

// flushLogicsLoop flushes consume queues every flushIntervalConsumeQueue,
// those with at least flushConsumeQueueLeastPages dirty pages, and all of
// them every flushConsumeQueueThoroughInterval, after which the checkpoint
// is written (Java FlushConsumeQueueService).
func (s *Store) flushLogicsLoop(stop <-chan struct{}) {
	tick := time.NewTicker(time.Duration(max(s.cfg.FlushIntervalConsumeQueue, 1)) * time.Millisecond)
	defer tick.Stop()
	thorough := time.Duration(s.cfg.FlushConsumeQueueThoroughInterval) * time.Millisecond
	last := time.Now()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		least := int(s.cfg.FlushConsumeQueueLeastPages)
		if time.Since(last) >= thorough {
			last = time.Now()
			least = 0
		}
		if err := s.flushLogics(least); err != nil {
			s.log.WithError(err).Error("flush consume queues")
		}
	}
}

// flushLogics flushes the consume queues; a thorough flush (leastPages 0)
// then records in the checkpoint the consume-queue store time read before
// flushing (so it only covers durable units) and writes the checkpoint.
func (s *Store) flushLogics(leastPages int) error {
	logics := s.cp.Logics()
	if err := s.cqs.Flush(leastPages); err != nil {
		return err
	}
	if leastPages != 0 {
		return nil
	}
	if err := s.cqs.FlushAll(); err != nil {
		return err
	}
	if logics > 0 {
		s.cp.SetLogics(logics)
	}
	return s.cp.Flush()
}
