// Package protocoltest builds requests of the protocol spec from fuzz
// input, for the servers' request fuzz tests: every code a server serves,
// with the wire keys and Java types of its request header as spec.txt
// declares them.
package protocoltest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/protocol/internal/spec"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Request is a request code and its request header's fields (base fields
// included, in Java's reflection order).
type Request struct {
	Code   protocol.RequestCode
	Fields []Field
}

// Field is a header field: its wire key and Java type.
type Field struct{ Key, Type string }

// Served is every request code whose spec SERVED_BY column is one of
// servedBy ("broker", "broker+client", "namesrv", …), in spec order.
func Served(servedBy ...string) ([]Request, error) {
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		return nil, fmt.Errorf("protocoltest: no source path")
	}
	path := filepath.Join(filepath.Dir(self), "..", "spec.txt")
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("protocoltest: %w", err)
	}
	defer f.Close()
	s, err := spec.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("protocoltest: %s: %w", path, err)
	}
	headers := map[string]*spec.Header{}
	for _, h := range s.Headers {
		headers[h.Class] = h
	}
	var out []Request
	for _, r := range s.Requests {
		if !contains(servedBy, r.ServedBy) {
			continue
		}
		req := Request{Code: protocol.RequestCode(r.Value)}
		if h := headers[r.RequestHeader]; h != nil {
			for _, f := range h.Fields {
				req.Fields = append(req.Fields, Field{Key: f.Java, Type: f.Type})
			}
		}
		out = append(out, req)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Values are the values a field may take besides raw fuzz bytes. Names
// is asked first for string fields (the server's topics, groups, …) and
// may return nil to fall back to a generic list.
type Values struct {
	Names  func(key string) []string
	Offset int64 // a commit-log offset the server holds
}

// For is the value list of a field.
func (v Values) For(f Field) []string {
	switch f.Type {
	case "Integer", "int":
		return []string{"0", "1", "3", "-1", "99", "2147483647", "-2147483648", "x", "", "1.5", "0x10"}
	case "Long", "long":
		return []string{"0", strconv.FormatInt(v.Offset, 10), "1", "-1", "100", "9223372036854775807",
			"-9223372036854775808", "1700000000000", "x", ""}
	case "Boolean", "boolean":
		return []string{"true", "false", "TRUE", "1", "x", ""}
	case "Double", "double":
		return []string{"0", "1.5", "-1", "NaN", "Infinity", "x"}
	}
	if v.Names != nil {
		if names := v.Names(f.Key); len(names) > 0 {
			return names
		}
	}
	return []string{"x", "", "TAG", "SINGLE_TAG", "0", strings.Repeat("x", 300), "\x01\x02"}
}

// Build makes a request of one of reqs from fuzz input: byte 0 picks the
// code; then one byte per header field: (b % 8) 0 leaves the field out, 7
// takes the next 0x00-terminated run of raw input as its value, else
// values.For(field)[b/8]; then one byte picks a body (>= 0xF0: the rest of
// the input as is) and one the serialize type (15 mod 16: ROCKETMQ).
func Build(data []byte, reqs []Request, values Values, bodies [][]byte) (*wire.Command, bool) {
	if len(data) == 0 || len(reqs) == 0 {
		return nil, false
	}
	in := input(data[1:])
	r := reqs[int(data[0])%len(reqs)]
	req := wire.NewRequest(int32(r.Code))
	for _, f := range r.Fields {
		switch b := in.next(); b % 8 {
		case 0:
		case 7:
			req.AddExt(f.Key, in.run())
		default:
			vals := values.For(f)
			req.AddExt(f.Key, vals[int(b/8)%len(vals)])
		}
	}
	if b := in.next(); b >= 0xF0 || len(bodies) == 0 {
		req.Body = in.rest()
	} else {
		req.Body = bodies[int(b)%len(bodies)]
	}
	if in.next()%16 == 15 {
		req.Serialize = wire.SerializeRocketMQ
	}
	return req, true
}

// Seed is fuzz input for the i-th request with every field set to value
// number n of its list (n in 0..30).
func Seed(i int, r Request, n byte) []byte {
	b := []byte{byte(i)}
	for range r.Fields {
		b = append(b, 1+n*8)
	}
	return append(b, 1, 0)
}

type input []byte

func (in *input) next() byte {
	if len(*in) == 0 {
		return 0
	}
	b := (*in)[0]
	*in = (*in)[1:]
	return b
}

func (in *input) run() string {
	s, rest, _ := strings.Cut(string(*in), "\x00")
	*in = input(rest)
	return s
}

func (in *input) rest() []byte {
	b := append([]byte(nil), *in...)
	*in = nil
	return b
}
