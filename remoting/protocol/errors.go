package protocol

import (
	"errors"
	"fmt"
)

// Error is the one typed protocol error: a failure that is answered with a
// response code and remark. Handlers return it (possibly wrapped); only the
// remoting boundary turns it into a response.
type Error struct {
	Code   ResponseCode
	Remark string
	// Thrown marks a failure Java reaches through an exception its
	// processor does not catch (a header field it cannot decode or that
	// is null where the processor uses it). NettyRemotingAbstract's catch
	// answers those with a new command, in the server's configured
	// serialize type rather than the request's.
	Thrown bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", e.Code, e.Remark)
}

// Errorf builds an *Error with a formatted remark.
func Errorf(code ResponseCode, format string, args ...any) *Error {
	return &Error{Code: code, Remark: fmt.Sprintf(format, args...)}
}

// Threw builds the *Error for a request Java's processor fails by
// throwing (Thrown): SYSTEM_ERROR, with remark as the remark where Java
// writes the exception's text.
func Threw(remark string) *Error {
	return &Error{Code: RespSystemError, Remark: remark, Thrown: true}
}

// AsError finds an *Error in err's chain.
func AsError(err error) (*Error, bool) {
	var pe *Error
	if errors.As(err, &pe) {
		return pe, true
	}
	return nil, false
}

// FAQSuggestTodo is what FAQUrl.suggestTodo appends to a remark in 4.9.8:
// it ignores the URL it is given and always points at the FAQ page.
const FAQSuggestTodo = "\nSee http://rocketmq.apache.org/docs/faq/ for further details."
