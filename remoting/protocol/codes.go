package protocol

// RequestInfo describes one request code (a row of spec.txt).
type RequestInfo struct {
	Code RequestCode
	Name string // Java RequestCode constant name
	// ServedBy is who answers the code in 4.9.8: "broker", "namesrv",
	// "client" (a broker→client callback), "broker+client" (the broker
	// forwards it to a client) or "unused".
	ServedBy string
	// RequestHeader and ResponseHeader name the header types used with the
	// code (Java class name = Go type name), "" for none.
	RequestHeader  string
	ResponseHeader string
}

// ResponseInfo describes one response code.
type ResponseInfo struct {
	Code  ResponseCode
	Name  string // Java constant name
	Class string // declaring Java class: RemotingSysResponseCode or ResponseCode
}

// LookupRequest returns the description of a 4.9.8 request code.
func LookupRequest(code RequestCode) (RequestInfo, bool) {
	if i := requestIndex(code); i >= 0 {
		return Requests[i], true
	}
	return RequestInfo{}, false
}

// LookupResponse returns the description of a 4.9.8 response code.
func LookupResponse(code ResponseCode) (ResponseInfo, bool) {
	if i := responseIndex(code); i >= 0 {
		return ResponseCodes[i], true
	}
	return ResponseInfo{}, false
}
