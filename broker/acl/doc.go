// Package acl is the broker's plain access control, mirroring Apache RocketMQ
// 4.9.8's PlainPermissionManager and PlainAccessValidator.validate, with the
// helpers they lean on: Permission, AclSigner/AclUtils (request content and
// its HMAC-SHA1 signature), RemoteAddressStrategyFactory (white address
// patterns) and AclFileWatchService (reloading when the yml files change).
//
// It knows nothing of remoting: the broker turns each request into a Request
// (what Java's PlainAccessValidator.parse builds) and calls Manager.Validate.
// A refusal is an *Error whose Error() is the exact remark a Java broker puts
// in its SYSTEM_ERROR response.
//
// The configuration is every *.yml/*.yaml under $ROCKETMQ_HOME/conf/acl plus
// the plain file ($ROCKETMQ_HOME/conf/plain_acl.yml by default):
//
//	globalWhiteRemoteAddresses: [10.10.103.*, 192.168.0.*]
//	accounts:
//	  - accessKey: RocketMQ          # longer than 6 characters
//	    secretKey: 12345678          # longer than 6 characters
//	    whiteRemoteAddress:          # a pattern; matching it skips the signature check
//	    admin: false                 # admin request codes need true
//	    defaultTopicPerm: DENY       # PUB, SUB, PUB|SUB, SUB|PUB or DENY (anything else and absent: DENY)
//	    defaultGroupPerm: SUB
//	    topicPerms: [topicA=DENY, topicB=PUB|SUB]
//	    groupPerms: [groupA=DENY, groupB=SUB]   # kept as %RETRY%groupA...
//	dataVersion: [{counter: 1, timestamp: 1700000000000}]
//
// Scalars are read as SnakeYAML (YAML 1.1) and fastjson read them for Java:
// secretKey: 12345678 is the string "12345678", an empty value is null.
// An access key found in two files belongs to the first file loaded.
//
// Manager keeps an immutable snapshot behind an atomic pointer, so Validate
// never waits for a reload.
package acl
