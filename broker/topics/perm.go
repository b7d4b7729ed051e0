package topics

// Permission bits of a topic (and of brokerPermission):
// common/.../constant/PermName.java. Part of the protocol, do not change.
const (
	PermPriority int32 = 1 << 3 // PERM_PRIORITY
	PermRead     int32 = 1 << 2 // PERM_READ
	PermWrite    int32 = 1 << 1 // PERM_WRITE
	PermInherit  int32 = 1 << 0 // PERM_INHERIT: a template other topics are created from
	PermRW             = PermRead | PermWrite
)

// IsReadable is PermName.isReadable.
func IsReadable(perm int32) bool { return perm&PermRead == PermRead }

// IsWriteable is PermName.isWriteable.
func IsWriteable(perm int32) bool { return perm&PermWrite == PermWrite }

// IsInherited is PermName.isInherited.
func IsInherited(perm int32) bool { return perm&PermInherit == PermInherit }

// PermString is PermName.perm2String: "RWX" with '-' for a missing bit.
func PermString(perm int32) string {
	b := []byte("---")
	if IsReadable(perm) {
		b[0] = 'R'
	}
	if IsWriteable(perm) {
		b[1] = 'W'
	}
	if IsInherited(perm) {
		b[2] = 'X'
	}
	return string(b)
}

// Topic system flags: common/.../sysflag/TopicSysFlag.java.
const (
	SysFlagUnit    int32 = 1 << 0 // FLAG_UNIT
	SysFlagUnitSub int32 = 1 << 1 // FLAG_UNIT_SUB
)
