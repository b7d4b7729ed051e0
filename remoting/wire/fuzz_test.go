package wire

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

// seedFrames are whole frames (with the length field) used as fuzz seeds.
func seedFrames(t testing.TB) [][]byte {
	var out [][]byte
	for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		for _, c := range []*Command{sampleCommand(st), NewRequest(26), NewResponse(sampleCommand(st), 17, "no route")} {
			c.Serialize = st
			f, err := AppendFrame(nil, c)
			require.NoError(t, err)
			out = append(out, f)
		}
	}
	return out
}

// splitReader returns the input in two reads, split at a chosen point, the
// way TCP may deliver it.
type splitReader struct {
	parts [][]byte
	reads int
}

func (r *splitReader) Read(p []byte) (int, error) {
	r.reads++
	for len(r.parts) > 0 && len(r.parts[0]) == 0 {
		r.parts = r.parts[1:]
	}
	if len(r.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.parts[0])
	r.parts[0] = r.parts[0][n:]
	return n, nil
}

// FuzzFrameReader feeds arbitrary byte streams, split at an arbitrary
// point, to the frame reader: it must never panic, and whatever it decodes
// must re-encode to a frame that decodes to the same command. When
// FrameBuffered says a frame is buffered, ReadCommand must not read.
func FuzzFrameReader(f *testing.F) {
	for _, s := range seedFrames(f) {
		f.Add(s, uint16(3))
		f.Add(append(append([]byte(nil), s...), s...), uint16(len(s)+1))
	}
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		_ = Annotate(data)
		at := int(split) % (len(data) + 1)
		r := &splitReader{parts: [][]byte{data[:at], data[at:]}}
		fr := NewFrameReader(r, 1<<16)
		for {
			buffered, reads := fr.FrameBuffered(), r.reads
			c, err := fr.ReadCommand()
			if buffered && r.reads != reads {
				t.Fatalf("FrameBuffered was true, but ReadCommand read from the stream")
			}
			if err != nil {
				return
			}
			checkReencode(t, c)
			c.Release()
		}
	})
}

func checkReencode(t *testing.T, c *Command) {
	t.Helper()
	if c.Serialize == SerializeRocketMQ && (c.Code != int32(int16(c.Code)) || c.Version != int32(int16(c.Version))) {
		t.Fatalf("binary decode produced out-of-range code/version %d/%d", c.Code, c.Version)
	}
	frame, err := AppendFrame(nil, c)
	if err != nil {
		return // e.g. a header that no longer fits after JSON escaping
	}
	again, err := Decode(frame[4:])
	if err != nil {
		t.Fatalf("re-encoded frame does not decode: %v\n%q", err, frame)
	}
	if c.Code != again.Code || c.Opaque != again.Opaque || c.Flag != again.Flag ||
		c.Remark != again.Remark || !bytes.Equal(c.Body, again.Body) || !sameExt(c.Ext, again.Ext) {
		t.Fatalf("round trip changed the command:\n%v\n%v", c, again)
	}
}

func sameExt(a, b []ExtField) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzJSONHeader decodes arbitrary JSON headers.
func FuzzJSONHeader(f *testing.F) {
	f.Add([]byte(`{"code":105,"extFields":{"topic":"T"},"flag":0,"language":"JAVA","opaque":3,"serializeTypeCurrentRPC":"JSON","version":409}`))
	f.Add([]byte(`{"code":105,"language":"GO","version":317,"opaque":1,"flag":0,"remark":"","extFields":{}}`))
	f.Add([]byte(`{code:1,'remark':'x\u0041\ud83d\ude00',extFields:{k:[1,{"a":null}],n:1.5e3}}`))
	f.Fuzz(func(t *testing.T, header []byte) {
		c := &Command{}
		c.Ext = c.extInline[:0]
		if err := decodeJSONHeader(c, header); err != nil {
			return
		}
		c.Serialize = SerializeJSON
		checkReencode(t, c)
	})
}

// FuzzBinaryHeader decodes arbitrary ROCKETMQ headers; a header that
// decodes with every ext entry kept re-encodes byte for byte.
func FuzzBinaryHeader(f *testing.F) {
	for _, c := range []*Command{sampleCommand(SerializeRocketMQ), NewRequest(26)} {
		f.Add(appendBinaryHeader(nil, c))
	}
	f.Fuzz(func(t *testing.T, header []byte) {
		c := &Command{}
		c.Ext = c.extInline[:0]
		if err := decodeBinaryHeader(c, header); err != nil {
			return
		}
		c.Serialize = SerializeRocketMQ
		out := appendBinaryHeader(nil, c)
		extLenAt := binRemarkOff + len(c.Remark)
		negativeExtLen := header[extLenAt]&0x80 != 0 // Java: no map
		if len(out) == len(header) && !negativeExtLen && !bytes.Equal(out, header) {
			t.Fatalf("same-length re-encode differs:\n%x\n%x", header, out)
		}
		checkReencode(t, c)
	})
}

// FuzzPeekHead reads arbitrary frames (without the length field): it must
// never panic, and wherever Decode succeeds it must succeed too with the
// same code, opaque and body length.
func FuzzPeekHead(f *testing.F) {
	for _, s := range seedFrames(f) {
		f.Add(s[lengthFieldSize:])
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		h, herr := PeekHead(frame)
		c, err := Decode(frame)
		if err != nil {
			return
		}
		if herr != nil {
			t.Fatalf("Decode read the frame, PeekHead failed: %v", herr)
		}
		if h.Code != c.Code || h.Opaque != c.Opaque || h.BodyLen != len(c.Body) || h.Serialize != c.Serialize {
			t.Fatalf("PeekHead %+v, Decode code %d opaque %d body %d", h, c.Code, c.Opaque, len(c.Body))
		}
	})
}
