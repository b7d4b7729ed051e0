package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func frameOf(t testing.TB, st SerializeType, header []byte, body []byte) []byte {
	t.Helper()
	out := binary.BigEndian.AppendUint32(nil, uint32(4+len(header)+len(body)))
	out = binary.BigEndian.AppendUint32(out, uint32(st)<<24|uint32(len(header)))
	out = append(out, header...)
	return append(out, body...)
}

func TestJSONHeaderDecodeTolerance(t *testing.T) {
	cases := []struct {
		name   string
		header string
		check  func(t *testing.T, c *Command)
	}{
		{"java", `{"code":105,"extFields":{"topic":"T"},"flag":0,"language":"JAVA","opaque":3,"serializeTypeCurrentRPC":"JSON","version":409}`,
			func(t *testing.T, c *Command) {
				require.EqualValues(t, 105, c.Code)
				require.Equal(t, LanguageJava, c.Language)
				require.EqualValues(t, 409, c.Version)
				require.EqualValues(t, 3, c.Opaque)
				require.Equal(t, []ExtField{{"topic", "T"}}, c.Ext)
			}},
		{"client-go", `{"code":105,"language":"GO","version":317,"opaque":1,"flag":0,"remark":"","extFields":{}}`,
			func(t *testing.T, c *Command) {
				require.Equal(t, LanguageGo, c.Language)
				require.Empty(t, c.Remark)
				require.Empty(t, c.Ext)
			}},
		{"whitespace and unknown keys", " {\n \"unknown\" : {\"a\":[1,2,{\"b\":null}]}, \"code\" : 11 ,\"x\":[],\"y\":true}\n",
			func(t *testing.T, c *Command) { require.EqualValues(t, 11, c.Code) }},
		{"quoted numbers and numeric language", `{"code":"12","language":9,"opaque":"-7"}`,
			func(t *testing.T, c *Command) {
				require.EqualValues(t, 12, c.Code)
				require.EqualValues(t, -7, c.Opaque)
				require.Equal(t, LanguageGo, c.Language)
			}},
		{"fastjson single quotes and bare keys", `{code:1,'remark':'it''s',extFields:{k:'v'}}`,
			nil},
		{"non-string ext values", `{"code":1,"extFields":{"n":12,"b":true,"z":null,"o":{"x":1}}}`,
			func(t *testing.T, c *Command) {
				require.Equal(t, []ExtField{{"n", "12"}, {"b", "true"}, {"o", `{"x":1}`}}, c.Ext)
			}},
		{"escapes", `{"code":1,"remark":"a\"b\\c\/d\n\u00e9\ud83d\ude00"}`,
			func(t *testing.T, c *Command) { require.Equal(t, "a\"b\\c/d\né😀", c.Remark) }},
		{"null remark and ext", `{"code":1,"remark":null,"extFields":null}`,
			func(t *testing.T, c *Command) {
				require.Empty(t, c.Remark)
				require.Empty(t, c.Ext)
			}},
		{"empty ext then more", `{"extFields":{},"code":5}`,
			func(t *testing.T, c *Command) { require.EqualValues(t, 5, c.Code) }},
		{"duplicate ext key: last wins", `{"code":1,"extFields":{"k":"1","k":"2"}}`,
			func(t *testing.T, c *Command) { require.Equal(t, []ExtField{{"k", "2"}}, c.Ext) }},
		{"unknown language", `{"code":1,"language":"KLINGON"}`,
			func(t *testing.T, c *Command) { require.Equal(t, LanguageUnknown, c.Language) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Decode(frameOf(t, SerializeJSON, []byte(tc.header), nil)[4:])
			if tc.check == nil {
				// `'it''s'` is not valid even for fastjson: must fail cleanly.
				require.ErrorIs(t, err, ErrMalformed)
				return
			}
			require.NoError(t, err)
			tc.check(t, c)
		})
	}
}

func TestJSONHeaderDecodeErrors(t *testing.T) {
	for _, h := range []string{
		``, `{`, `{"code":}`, `{"code":1`, `{"code":1}x`, `{"code":99999999999}`,
		`{"code":"ten"}`, `{"remark":"unterminated}`, `{"remark":"\u12"}`, `[1]`,
		`{"extFields":{"a":"b"`, `{"a":[[[[}`, `{"a":]}`,
	} {
		_, err := Decode(frameOf(t, SerializeJSON, []byte(h), nil)[4:])
		require.ErrorIs(t, err, ErrMalformed, "header %q", h)
	}
}

func TestBinaryHeaderQuirks(t *testing.T) {
	c := NewRequest(11)
	c.Serialize = SerializeRocketMQ
	c.AddExt("empty", "")
	c.AddExt("k", "v")
	frame, err := AppendFrame(nil, c)
	require.NoError(t, err)
	got, err := Decode(frame[4:])
	require.NoError(t, err)
	// Java reads a zero-length string as null, and a null value as absent.
	require.Equal(t, []ExtField{{"k", "v"}}, got.Ext)

	c = NewRequest(0x12345) // Java writes the code with writeShort
	c.Serialize = SerializeRocketMQ
	frame, err = AppendFrame(nil, c)
	require.NoError(t, err)
	got, err = Decode(frame[4:])
	require.NoError(t, err)
	require.EqualValues(t, int16(0x2345), got.Code)
	require.Equal(t, 4+binFixedLen, len(frame)-4)
}

func TestBinaryHeaderDecodeErrors(t *testing.T) {
	good := appendBinaryHeader(nil, sampleCommand(SerializeRocketMQ))
	cases := map[string][]byte{
		"short":            good[:binFixedLen-1],
		"remark overrun":   patch32(good, binRemarkLenOff, 1<<20),
		"negative remark":  patch32(good, binRemarkLenOff, 0xFFFFFFFF),
		"trailing":         append(append([]byte(nil), good...), 0),
		"ext len too long": append([]byte(nil), good[:len(good)-1]...),
	}
	for name, h := range cases {
		_, err := Decode(frameOf(t, SerializeRocketMQ, h, nil)[4:])
		require.ErrorIs(t, err, ErrMalformed, name)
	}
}

func patch32(b []byte, off int, v uint32) []byte {
	out := append([]byte(nil), b...)
	binary.BigEndian.PutUint32(out[off:], v)
	return out
}

func TestFrameErrors(t *testing.T) {
	_, err := Decode([]byte{0, 0})
	require.ErrorIs(t, err, ErrMalformed)
	_, err = Decode([]byte{0, 0, 0, 9})
	require.ErrorIs(t, err, ErrMalformed, "header length beyond frame")
	_, err = Decode([]byte{7, 0, 0, 0})
	require.ErrorIs(t, err, ErrMalformed, "unknown serialize type")

	big := binary.BigEndian.AppendUint32(nil, DefaultMaxFrameLength-3)
	_, err = NewFrameReader(bytes.NewReader(big), 0).ReadCommand()
	require.ErrorIs(t, err, ErrFrameTooLong)
	neg := binary.BigEndian.AppendUint32(nil, 0x80000000)
	_, err = NewFrameReader(bytes.NewReader(neg), 0).ReadCommand()
	require.ErrorIs(t, err, ErrMalformed)

	frame, err := AppendFrame(nil, sampleCommand(SerializeJSON))
	require.NoError(t, err)
	_, err = NewFrameReader(bytes.NewReader(frame[:len(frame)-1]), 0).ReadCommand()
	require.True(t, errors.Is(err, io.ErrUnexpectedEOF), "%v", err)
	_, err = NewFrameReader(bytes.NewReader(nil), 0).ReadCommand()
	require.Equal(t, io.EOF, err)
}

func TestMaxFrameBoundary(t *testing.T) {
	// Netty compares length+4 with the maximum.
	c := NewRequest(1)
	c.Body = make([]byte, 100)
	frame, err := AppendFrame(nil, c)
	require.NoError(t, err)
	_, err = NewFrameReader(bytes.NewReader(frame), len(frame)).ReadCommand()
	require.NoError(t, err)
	_, err = NewFrameReader(bytes.NewReader(frame), len(frame)-1).ReadCommand()
	require.ErrorIs(t, err, ErrFrameTooLong)
}

func TestJSONStringEscaping(t *testing.T) {
	const in = "a\"\\/\b\t\n\f\r\x01\x1f\x7f\u0085é世\u2028\u2029"
	const want = `"a\"\\/\b\t\n\f\r\u0001\u001F\u007F\u0085é世\u2028\u2029"`
	require.Equal(t, want, string(AppendFastjsonString(nil, in)))
	require.Equal(t, want, string(AppendFastjsonJavaString(nil, in)))

	// Malformed UTF-8: kept as it is, or one U+FFFD per byte for a Java
	// String; a C1 control or U+2028 right after it is still escaped.
	const bad = "x\xff\xe2\x82\xc2\x85\xe2\xe2\x80\xa8\xc2"
	require.Equal(t, "\"x\xff\xe2\x82\\u0085\xe2\\u2028\xc2\"", string(AppendFastjsonString(nil, bad)))
	require.Equal(t, "\"x\uFFFD\uFFFD\uFFFD\\u0085\uFFFD\\u2028\uFFFD\"", string(AppendFastjsonJavaString(nil, bad)))
}

func TestPayloadInFrame(t *testing.T) {
	c := NewRequest(11)
	c.Body = []byte("ab")
	p := &testPayload{bufs: [][]byte{[]byte("cd"), []byte("ef")}}
	c.Payload = p
	frame, err := AppendFrame(nil, c)
	require.NoError(t, err)
	got, err := Decode(frame[4:])
	require.NoError(t, err)
	require.Equal(t, "abcdef", string(got.Body))
	c.Release()
	require.Equal(t, 1, p.released)
}

type testPayload struct {
	bufs     [][]byte
	released int
}

func (p *testPayload) Buffers() [][]byte { return p.bufs }
func (p *testPayload) Len() int {
	n := 0
	for _, b := range p.bufs {
		n += len(b)
	}
	return n
}
func (p *testPayload) Release() { p.released++ }

func TestDetachBodySurvivesRelease(t *testing.T) {
	frame, err := AppendFrame(nil, sampleCommand(SerializeRocketMQ))
	require.NoError(t, err)
	c, err := NewFrameReader(bytes.NewReader(frame), 0).ReadCommand()
	require.NoError(t, err)
	c.DetachBody()
	c.Release()
	require.Equal(t, "hello", string(c.Body))
}

func TestPeekHead(t *testing.T) {
	for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		req := sampleCommand(st)
		req.Opaque = -7
		resp := NewResponse(req, 17, `remark with "opaque":99`)
		resp.Body = []byte("body")
		f, err := AppendFrame(nil, resp)
		require.NoError(t, err)
		h, err := PeekHead(f[lengthFieldSize:])
		require.NoError(t, err)
		require.Equal(t, Head{Serialize: st, Code: 17, Opaque: -7, BodyLen: 4, HasCode: true, HasOpaque: true}, h, st.String())
	}
	for name, header := range map[string]string{"no opaque": `{"code":3}`, "no code": `{"flag":1,"opaque":2}`} {
		f := binary.BigEndian.AppendUint32(nil, uint32(len(header)))
		h, err := PeekHead(append(f, header...))
		require.NoError(t, err, name)
		require.Equal(t, name == "no code", !h.HasCode, name)
		require.Equal(t, name == "no opaque", !h.HasOpaque, name)
	}
	for _, bad := range [][]byte{{0, 0, 0}, {0, 0, 0, 9, '{'}, {1, 0, 0, 2, 0, 1}, {7, 0, 0, 0}, append([]byte{0, 0, 0, 10}, `{"code":x}`...)} {
		_, err := PeekHead(bad)
		require.ErrorIs(t, err, ErrMalformed, "%q", bad)
	}
}
