package protocol

import "strconv"

// Bootstrap constants until the generator writes the full tables; the
// generator replaces this file.
const (
	RespSuccess                 ResponseCode = 0
	RespSystemError             ResponseCode = 1
	RespSystemBusy              ResponseCode = 2
	RespRequestCodeNotSupported ResponseCode = 3
	RespTransactionFailed       ResponseCode = 4
)

func (c ResponseCode) String() string { return "ResponseCode(" + strconv.Itoa(int(c)) + ")" }

func (c RequestCode) String() string { return "RequestCode(" + strconv.Itoa(int(c)) + ")" }
