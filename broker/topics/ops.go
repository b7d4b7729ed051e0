package topics

import (
	"github.com/sputnikmq/sputnik/store/config"
)

// CreateInSendMessage is createTopicInSendMessageMethod: a send to an
// unknown topic creates it from defaultTopic (the producer's
// createTopicKey, normally TBW102) when that topic carries the inherit
// bit: min(clientQueueNums, default's write queues) queues (at least 0),
// the default's permission without the inherit bit, its filter type and
// the given sysFlag. It returns the topic, and false when it neither
// existed nor could be created. When defaultTopic is TBW102 and
// autoCreateTopicEnable is off, TBW102's permission is first reset to RW
// (in memory only, as Java does), so nothing is created.
func (m *Manager) CreateInSendMessage(topic, defaultTopic, remoteAddr string, clientQueueNums, sysFlag int32) (config.TopicConfig, bool, error) {
	m.mu.Lock()
	if tc, ok := m.table.Get(topic); ok {
		m.mu.Unlock()
		return tc, true, nil
	}
	tc, ok := m.fromDefaultLocked(topic, defaultTopic, remoteAddr, clientQueueNums, sysFlag)
	if ok {
		m.table.Put(topic, tc)
		m.changedLocked()
		m.opts.Log.WithField("topic", topic).WithField("default", defaultTopic).
			WithField("remote", remoteAddr).Info("create new topic by default topic")
	}
	m.mu.Unlock()
	if !ok {
		return config.TopicConfig{}, false, nil
	}
	return tc, true, m.persistAndRegister()
}

// fromDefaultLocked builds the new topic from defaultTopic. Lock should be
// held.
func (m *Manager) fromDefaultLocked(topic, defaultTopic, remoteAddr string, clientQueueNums, sysFlag int32) (config.TopicConfig, bool) {
	def, ok := m.table.Get(defaultTopic)
	if !ok {
		m.opts.Log.WithField("default", defaultTopic).WithField("remote", remoteAddr).
			Warn("create new topic failed: the default topic does not exist")
		return config.TopicConfig{}, false
	}
	if defaultTopic == AutoCreateTopicKey && !m.autoCreate {
		def.Perm = PermRW
		m.table.Put(defaultTopic, def)
	}
	if !IsInherited(def.Perm) {
		m.opts.Log.WithField("default", defaultTopic).WithField("perm", def.Perm).
			WithField("remote", remoteAddr).Warn("create new topic failed: the default topic has no inherit permission")
		return config.TopicConfig{}, false
	}
	tc := config.NewTopicConfig(topic)
	queues := max(min(clientQueueNums, def.WriteQueueNums), 0)
	tc.ReadQueueNums, tc.WriteQueueNums = queues, queues
	tc.Perm = def.Perm &^ PermInherit
	tc.TopicSysFlag = sysFlag
	tc.TopicFilterType = def.TopicFilterType
	return tc, true
}

// CreateInSendMessageBack is createTopicInSendMessageBackMethod: the
// retry, DLQ and transaction topics are created with the given queues,
// permission and sysFlag when missing. created reports a new topic.
func (m *Manager) CreateInSendMessageBack(topic string, queueNums, perm, sysFlag int32) (tc config.TopicConfig, created bool, err error) {
	return m.createFixed(topic, queueNums, perm, sysFlag)
}

// CreateTranCheckMaxTime is createTopicOfTranCheckMaxTime: the topic of
// transaction messages checked too often (sysFlag 0).
func (m *Manager) CreateTranCheckMaxTime(queueNums, perm int32) (tc config.TopicConfig, created bool, err error) {
	return m.createFixed(TransCheckMaxTimeTopic, queueNums, perm, 0)
}

func (m *Manager) createFixed(topic string, queueNums, perm, sysFlag int32) (config.TopicConfig, bool, error) {
	m.mu.Lock()
	if tc, ok := m.table.Get(topic); ok {
		m.mu.Unlock()
		return tc, false, nil
	}
	tc := config.NewTopicConfig(topic)
	tc.ReadQueueNums, tc.WriteQueueNums = queueNums, queueNums
	tc.Perm, tc.TopicSysFlag = perm, sysFlag
	m.table.Put(topic, tc)
	m.changedLocked()
	m.mu.Unlock()
	m.opts.Log.WithField("topic", topic).Info("create new topic")
	return tc, true, m.persistAndRegister()
}

func (m *Manager) persistAndRegister() error {
	err := m.Persist()
	if m.opts.Register != nil {
		m.opts.Register()
	}
	return err
}

// Update is updateTopicConfig: tc replaces (or adds) its topic, the data
// version moves on and the file is written. With LMQ on, an LMQ topic is
// ignored.
func (m *Manager) Update(tc config.TopicConfig) error {
	if tc.TopicNameNull {
		return ErrNullTopicName
	}
	if m.opts.EnableLmq && IsLmq(tc.TopicName) {
		return nil
	}
	m.mu.Lock()
	_, existed := m.table.Get(tc.TopicName)
	m.table.Put(tc.TopicName, tc)
	m.changedLocked()
	m.mu.Unlock()
	m.opts.Log.WithField("topic", tc.TopicName).WithField("existed", existed).Info("update topic config")
	return m.Persist()
}

// UpdateUnitFlag is updateTopicUnitFlag: sets or clears the unit bit of an
// existing topic's sysFlag (a missing topic is ignored).
func (m *Manager) UpdateUnitFlag(topic string, unit bool) error {
	return m.updateSysFlag(topic, SysFlagUnit, unit)
}

// UpdateUnitSubFlag is updateTopicUnitSubFlag.
func (m *Manager) UpdateUnitSubFlag(topic string, hasUnitSub bool) error {
	return m.updateSysFlag(topic, SysFlagUnitSub, hasUnitSub)
}

// updateSysFlag always bumps the version, writes and registers when the
// topic exists, even when the bit was already so (as Java).
func (m *Manager) updateSysFlag(topic string, bit int32, set bool) error {
	m.mu.Lock()
	tc, ok := m.table.Get(topic)
	if !ok {
		m.mu.Unlock()
		return nil
	}
	if set {
		tc.TopicSysFlag |= bit
	} else {
		tc.TopicSysFlag &^= bit
	}
	m.table.Put(topic, tc)
	m.changedLocked()
	m.mu.Unlock()
	return m.persistAndRegister()
}

// UpdateOrderTopics is updateOrderTopicConfig with the name server's
// ORDER_TOPIC_CONFIG table: the topics named in orderTopics become order
// topics and every other topic stops being one. A nil map is Java's null
// table (nothing happens); an empty one clears every order flag. The
// version moves on and the file is written only when a flag changed.
func (m *Manager) UpdateOrderTopics(orderTopics map[string]string) error {
	if orderTopics == nil {
		return nil
	}
	m.mu.Lock()
	var changed []string
	var flipped []config.TopicConfig
	m.table.Range(func(name string, tc config.TopicConfig) bool {
		if _, want := orderTopics[name]; tc.Order != want {
			tc.Order = want
			flipped = append(flipped, tc)
			changed = append(changed, name)
		}
		return true
	})
	for i, tc := range flipped {
		m.table.Put(changed[i], tc) // an existing key keeps its place
	}
	if len(changed) > 0 {
		m.changedLocked()
	}
	m.mu.Unlock()
	if len(changed) == 0 {
		return nil
	}
	m.opts.Log.WithField("topics", changed).Info("update order topic config")
	return m.Persist()
}

// Delete is deleteTopicConfig: it reports whether topic existed; only then
// the version moves on and the file is written.
func (m *Manager) Delete(topic string) (bool, error) {
	m.mu.Lock()
	_, ok := m.table.Remove(topic)
	if ok {
		m.changedLocked()
	}
	m.mu.Unlock()
	if !ok {
		m.opts.Log.WithField("topic", topic).Warn("delete topic config failed: no such topic")
		return false, nil
	}
	m.opts.Log.WithField("topic", topic).Info("delete topic config")
	return true, m.Persist()
}
