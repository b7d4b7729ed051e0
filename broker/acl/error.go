package acl

import (
	"errors"
	"fmt"
)

// Error is a refused request: Java's AclException thrown by
// PlainPermissionManager.validate or checkPerm.
type Error struct {
	msg string
	// frame is the top stack frame of the Java exception: the method and
	// 4.9.8 source line of its throw.
	frame string
	cause error
}

// The frames of the throws in PlainPermissionManager.java (4.9.8).
const (
	frameNoAccessKey = "PlainPermissionManager.validate(PlainPermissionManager.java:664)"
	frameNoAccount   = "PlainPermissionManager.validate(PlainPermissionManager.java:668)"
	frameSignature   = "PlainPermissionManager.validate(PlainPermissionManager.java:684)"
	frameNeedAdmin   = "PlainPermissionManager.checkPerm(PlainPermissionManager.java:581)"
	frameDefaultPerm = "PlainPermissionManager.checkPerm(PlainPermissionManager.java:606)"
	frameOwnedPerm   = "PlainPermissionManager.checkPerm(PlainPermissionManager.java:611)"
)

// frameParse is PlainAccessValidator.parse's throw (4.9.8 line 134).
const frameParse = "PlainAccessValidator.parse(PlainAccessValidator.java:134)"

// Error is what a Java broker puts in the SYSTEM_ERROR remark
// (RemotingHelper.exceptionSimpleDesc): the exception and its top frame.
// An empty message is Java's null, which Throwable.toString leaves out.
func (e *Error) Error() string {
	s := "org.apache.rocketmq.acl.common.AclException"
	if e.msg != "" {
		s += ": " + e.msg
	}
	return s + ", org.apache.rocketmq.acl.plain." + e.frame
}

// ParseError is the AclException PlainAccessValidator.parse throws when it
// cannot read a request's header or body; err's text is its message. It
// returns nil for nil.
func ParseError(err error) error {
	if err == nil {
		return nil
	}
	return &Error{msg: err.Error(), frame: frameParse, cause: err}
}

// Unwrap returns the error ParseError wrapped, if any.
func (e *Error) Unwrap() error { return e.cause }

// Message is the exception's bare message.
func (e *Error) Message() string { return e.msg }

func refuse(frame, format string, args ...any) *Error {
	return &Error{msg: fmt.Sprintf(format, args...), frame: frame}
}

// ErrNoHome is returned by the admin operations when Options.Home is empty,
// so there is no file to write.
var ErrNoHome = errors.New("acl: no ROCKETMQ_HOME, no acl file to write")
