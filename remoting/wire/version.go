package wire

// Client and broker versions: a command's version field is the ordinal of
// MQVersion.Version. The ordinals a request's handling depends on are
// named here, checked against the 4.9.8 enum in
// compat/testdata/java-4.9.8/versions.tsv (version_java_test.go).
const (
	// VersionV3_0_7Snapshot: clients from this version on take offset
	// resets and status requests from the broker (Broker2Client).
	VersionV3_0_7Snapshot int32 = 28
	// VersionV3_0_11: brokers from this version on register with a
	// RegisterBrokerBody, older ones with a TopicConfigSerializeWrapper.
	VersionV3_0_11 int32 = 37
	// VersionV3_1_8Snapshot: consumers from this version on answer
	// requests the broker relays (AdminBrokerProcessor.callConsumer).
	VersionV3_1_8Snapshot int32 = 62
	// VersionV3_4_9: clients from this version on may send
	// maxReconsumeTimes.
	VersionV3_4_9 int32 = 121
	// VersionV4_9_4: clients from this version on get routes in standard
	// JSON (quoted map keys).
	VersionV4_9_4 int32 = 401
	// CurrentVersion is MQVersion.CURRENT_VERSION of 4.9.8 (V4_9_8).
	CurrentVersion int32 = 409
)

// CurrentVersionDesc is MQVersion.getVersionDesc(CURRENT_VERSION): what a
// 4.9.8 broker reports as its version and sends as Client-Version.
const CurrentVersionDesc = "V4_9_8"
