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
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", e.Code, e.Remark)
}

// Errorf builds an *Error with a formatted remark.
func Errorf(code ResponseCode, format string, args ...any) *Error {
	return &Error{Code: code, Remark: fmt.Sprintf(format, args...)}
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
