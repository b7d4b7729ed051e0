// Package groups is the broker's subscription-group table: Java 4.9.8's
// SubscriptionGroupManager (broker/.../subscription/SubscriptionGroupManager.java,
// and LmqSubscriptionGroupManager when LMQ is on) and the group names of
// common/.../MixAll.java.
//
//	Go                  Java (SubscriptionGroupManager)
//	------------------  -------------------------------------------------------
//	New                 the constructor: init() puts the built-in groups
//	Load / Persist      ConfigManager.load (decode = putAll) / persist
//	Find                findSubscriptionGroupConfig (auto-creates)
//	Get, Groups         getSubscriptionGroupTable().get / the table's values
//	Update              updateSubscriptionGroupConfig
//	DisableConsume      disableConsume (version bump, no write)
//	Delete              deleteSubscriptionGroupConfig
//
// # Built-in groups (init(), in put order; all defaults otherwise)
//
//	TOOLS_CONSUMER, FILTERSRV_CONSUMER, SELF_TEST_C_GROUP,
//	CID_ONS-HTTP-PROXY, CID_ONSAPI_PULL, CID_ONSAPI_PERMISSION,
//	CID_ONSAPI_OWNER
//
// (Java sets consumeBroadcastEnable on the last four, which is already the
// default.)
//
// # Loading resets the data version
//
// Java's decode copies the data version of a SubscriptionGroupManager that
// fastjson created, and fastjson cannot set that final, setter-less field:
// after a restart the version is a fresh one (counter 0, the load time),
// whatever the file says. Load does the same, so the name server and the
// slaves see the numbers they see with Java.
//
// Every change Java persists is persisted here, after the lock is
// released; a failed save is returned and the change stays, as in Java.
package groups

import "errors"

// Errors of the package.
var (
	// ErrNoRoot: Options.StorePathRootDir is empty.
	ErrNoRoot = errors.New("groups: no store root directory")
	// ErrNullGroupName: Update was given a config whose groupName is Java
	// null (ConcurrentHashMap.put throws).
	ErrNullGroupName = errors.New("groups: group name is null")
)
