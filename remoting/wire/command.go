// Package wire holds the RocketMQ 4.x remoting command and its frame codec:
// the length-prefixed frame, the JSON header (SerializeType 0) and the
// ROCKETMQ binary header (SerializeType 1). It imports nothing of Sputnik and
// knows nothing of request codes; see layout.go for the byte layouts.
//
// Java 4.9.8 mirror: org.apache.rocketmq.remoting.protocol.RemotingCommand,
// RemotingSerializable, RocketMQSerializable, LanguageCode, SerializeType.
package wire

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/valyala/bytebufferpool"
)

// SerializeType selects the header codec of one command. It travels in the
// high byte of the frame's second int and is carried on each Command: a
// response is written in the serialize type of the request it answers.
type SerializeType byte

// The serialize types of Java's SerializeType enum. Part of the format.
const (
	SerializeJSON     SerializeType = 0
	SerializeRocketMQ SerializeType = 1
)

func (t SerializeType) String() string {
	switch t {
	case SerializeJSON:
		return "JSON"
	case SerializeRocketMQ:
		return "ROCKETMQ"
	}
	return "SerializeType(" + strconv.Itoa(int(t)) + ")"
}

// ParseSerializeType parses the names Java accepts in the
// rocketmq.serialize.type property (case-sensitive, as Enum.valueOf).
func ParseSerializeType(s string) (SerializeType, error) {
	switch s {
	case "JSON":
		return SerializeJSON, nil
	case "ROCKETMQ":
		return SerializeRocketMQ, nil
	}
	return 0, fmt.Errorf("wire: unknown serialize type %q", s)
}

// Flag bits of RemotingCommand.flag (RPC_TYPE = 0, RPC_ONEWAY = 1).
const (
	FlagResponse int32 = 1 << 0
	FlagOneway   int32 = 1 << 1
)

// ExtField is one entry of the header's extFields map. A decoded command
// keeps its entries in wire order, so that it re-encodes byte for byte; a
// command made here (NewRequest, NewResponse) is written in the order Java
// would write it (see extorder.go).
type ExtField struct {
	Key   string
	Value string
}

// inlineExt is how many ext fields a Command holds without allocating; it
// covers SEND_MESSAGE_V2 (a..n) plus a couple of extras.
const inlineExt = 16

// Command is one remoting command, request or response.
//
// Strings of a decoded command usually share one backing string made from
// the header bytes, so decoding costs a single allocation for all of them.
// Body aliases the frame buffer handed to Decode when the caller keeps that
// buffer alive; see Decode.
type Command struct {
	Code      int32
	Language  LanguageCode
	Version   int32
	Opaque    int32
	Flag      int32
	Remark    string
	Ext       []ExtField
	Body      []byte
	Serialize SerializeType

	// Payload, when set, is written after Body without copying (a pull
	// response pointing into the commit log). The writer releases it.
	Payload Payload

	frame     *bytebufferpool.ByteBuffer
	made      bool       // made by NewRequest or NewResponse: Ext is written in Java's order
	hdr       headerMark // the entries a typed header wrote (MarkHeader)
	extInline [inlineExt]ExtField
}

// Payload is a body held elsewhere, written with writev and released once
// written (or dropped).
type Payload interface {
	// Buffers returns the slices to write, in order.
	Buffers() [][]byte
	// Len is the total length of Buffers.
	Len() int
	// Release returns the underlying memory; called exactly once.
	Release()
}

// NewRequest returns a request command with the given code, speaking as a
// Java 4.9.8 process (language JAVA, version 409).
func NewRequest(code int32) *Command {
	c := &Command{Code: code, Language: LanguageJava, Version: CurrentVersion}
	c.Ext = c.extInline[:0]
	c.made = true
	return c
}

// NewResponse returns a response to req: same opaque and serialize type,
// the response flag set.
func NewResponse(req *Command, code int32, remark string) *Command {
	c := &Command{
		Code:      code,
		Language:  LanguageJava,
		Version:   CurrentVersion,
		Opaque:    req.Opaque,
		Flag:      FlagResponse,
		Remark:    remark,
		Serialize: req.Serialize,
	}
	c.Ext = c.extInline[:0]
	c.made = true
	return c
}

// IsResponse reports whether the response bit is set.
func (c *Command) IsResponse() bool { return c.Flag&FlagResponse != 0 }

// IsOneway reports whether the oneway bit is set.
func (c *Command) IsOneway() bool { return c.Flag&FlagOneway != 0 }

// MarkResponse sets the response bit.
func (c *Command) MarkResponse() { c.Flag |= FlagResponse }

// MarkOneway sets the oneway bit.
func (c *Command) MarkOneway() { c.Flag |= FlagOneway }

// ExtValue returns the value of key and whether it is present. Like Java's
// HashMap.get, the last entry of a key wins.
func (c *Command) ExtValue(key string) (string, bool) {
	for i := len(c.Ext) - 1; i >= 0; i-- {
		if c.Ext[i].Key == key {
			return c.Ext[i].Value, true
		}
	}
	return "", false
}

// AddExt appends an entry without looking for an existing key; generated
// header encoders use it on fresh commands.
func (c *Command) AddExt(key, value string) {
	if c.Ext == nil {
		c.Ext = c.extInline[:0]
	}
	c.Ext = append(c.Ext, ExtField{Key: key, Value: value})
}

// SetExt replaces the value of key, or appends it.
func (c *Command) SetExt(key, value string) {
	for i := range c.Ext {
		if c.Ext[i].Key == key {
			c.Ext[i].Value = value
			return
		}
	}
	c.AddExt(key, value)
}

// BodyLen is the length of Body plus Payload.
func (c *Command) BodyLen() int {
	n := len(c.Body)
	if c.Payload != nil {
		n += c.Payload.Len()
	}
	return n
}

// String renders the command for logs, like Java's RemotingCommand.toString.
func (c *Command) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "RemotingCommand [code=%d, language=%s, version=%d, opaque=%d, flag(B)=%b, remark=%s, extFields={",
		c.Code, c.Language, c.Version, c.Opaque, c.Flag, c.Remark)
	for i, f := range c.Ext {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Key)
		b.WriteByte('=')
		b.WriteString(f.Value)
	}
	fmt.Fprintf(&b, "}, serializeTypeCurrentRPC=%s]", c.Serialize)
	return b.String()
}

// ConfiguredSerializeType reads the rocketmq.serialize.type setting
// (ROCKETMQ_SERIALIZE_TYPE) as RemotingCommand's static initializer does:
// blank is JSON; anything but JSON or ROCKETMQ is fatal, with Java's
// message.
func ConfiguredSerializeType(v string) (SerializeType, error) {
	if strings.TrimSpace(v) == "" {
		return SerializeJSON, nil
	}
	t, err := ParseSerializeType(v)
	if err != nil {
		return 0, fmt.Errorf("java.lang.RuntimeException: parser specified protocol error. protocol=%s", v)
	}
	return t, nil
}
