package config

import "path/filepath"

// File names under <storePathRootDir>/config/. Part of the on-disk layout,
// do not change. Java: BrokerPathConfigHelper and
// StorePathConfigHelper.getDelayOffsetStorePath.
const (
	configDir             = "config"
	topicsFile            = "topics.json"
	subscriptionGroupFile = "subscriptionGroup.json"
	consumerOffsetFile    = "consumerOffset.json"
	lmqConsumerOffsetFile = "lmqConsumerOffset.json"
	delayOffsetFile       = "delayOffset.json"
	consumerFilterFile    = "consumerFilter.json"
	backupSuffix          = ".bak" // MixAll.string2File
)

// TopicsPath is BrokerPathConfigHelper.getTopicConfigPath(root).
func TopicsPath(root string) string { return filepath.Join(root, configDir, topicsFile) }

// SubscriptionGroupPath is BrokerPathConfigHelper.getSubscriptionGroupPath(root).
func SubscriptionGroupPath(root string) string {
	return filepath.Join(root, configDir, subscriptionGroupFile)
}

// ConsumerOffsetPath is BrokerPathConfigHelper.getConsumerOffsetPath(root).
func ConsumerOffsetPath(root string) string {
	return filepath.Join(root, configDir, consumerOffsetFile)
}

// LmqConsumerOffsetPath is BrokerPathConfigHelper.getLmqConsumerOffsetPath(root)
// (written only when LMQ is enabled; same format as consumerOffset.json).
func LmqConsumerOffsetPath(root string) string {
	return filepath.Join(root, configDir, lmqConsumerOffsetFile)
}

// DelayOffsetPath is StorePathConfigHelper.getDelayOffsetStorePath(root).
func DelayOffsetPath(root string) string { return filepath.Join(root, configDir, delayOffsetFile) }

// ConsumerFilterPath is BrokerPathConfigHelper.getConsumerFilterPath(root).
func ConsumerFilterPath(root string) string {
	return filepath.Join(root, configDir, consumerFilterFile)
}
